"""CPU time of a benchmark process and its workers (the extraction worker, restarted ones included).

``getrusage(RUSAGE_CHILDREN)`` alone misses children still running (../shared/STACK-NOTES.md), and psutil alone
misses children that already exited (an extraction worker killed at its deadline and replaced), so both are summed.
"""

from __future__ import annotations

import contextlib
import resource

import psutil


def cpu_seconds() -> float:
    """User + system CPU of this process, its live children and its finished children so far."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += sum(child.cpu_times()[:2])
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    return total + done.ru_utime + done.ru_stime
