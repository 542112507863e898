"""CPU time of a benchmark process and its workers (the extraction worker, restarted ones included).

``getrusage(RUSAGE_CHILDREN)`` alone misses children still running (../shared/STACK-NOTES.md), and psutil alone
misses children that already exited (an extraction worker killed at its deadline and replaced), so both are summed.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

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


# --- Whole process trees (bench/e2e.py) -------------------------------------------------------------------------
# A run that starts embedded Ray or a multiprocessing pool leaves processes that outlive their parent (Ray's
# workers, raylet and GCS are re-parented when the driver's helpers exit), and an orphan is reaped by init, so its
# CPU never reaches this process's RUSAGE_CHILDREN. Marked as a child subreaper (Linux prctl), this process adopts
# every orphan among its descendants instead; reaping them all before reading RUSAGE_CHILDREN then gives the exact
# CPU of the whole tree, however short-lived its processes were, except for processes whose parent ignores SIGCHLD
# (the kernel then discards them unaccounted; Ray's do so). Where this process may create a cgroup (v1 ``cpuacct``,
# or v2), the command runs in its own cgroup instead and the kernel's count for the group is exact whatever
# happens to its processes. Sampling with psutil is kept as a cross-check (it misses what a process did after its
# last sample) and for the resident memory of the tree.

PR_SET_CHILD_SUBREAPER = 36
CGROUP_V1_CPUACCT = Path("/sys/fs/cgroup/cpuacct")
CGROUP_V2 = Path("/sys/fs/cgroup")


def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants; False where the kernel refuses (not Linux)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclass
class TreeRun:
    """One command measured with its whole process tree."""

    returncode: int
    wall_s: float  # start to the exit of the command's own process
    cpu_s: float  # user + system of the tree: the cgroup's count where one was made, else ``cpu_rusage_s``
    cpu_method: str  # "cgroup" or "rusage"
    cpu_rusage_s: float  # user + system of every descendant, from RUSAGE_CHILDREN once all were reaped
    cpu_sampled_s: float  # the same from psutil samples (a lower bound: the last interval of each process is missed)
    peak_rss_bytes: int  # largest sum of RSS over the live tree at one sample (shared pages counted per process)
    processes: int  # distinct processes seen in the samples
    stragglers: int  # descendants still alive ``settle_s`` after the command exited (then terminated)
    settle_s: float  # seconds from the command's exit until its last descendant was reaped
    machine_busy_s: float  # CPU seconds the whole machine was busy meanwhile (/proc/stat): the rest is others' load


def _cpu_of(times: Any) -> float:
    return float(times.user + times.system)


def make_cpu_cgroup() -> Path | None:
    """A new, empty cgroup that counts CPU time (v1 ``cpuacct`` or v2), or None where none can be made."""
    name = f"winnow-bench-{os.getpid()}-{time.monotonic_ns()}"
    for root, counter in ((CGROUP_V1_CPUACCT, "cpuacct.usage"), (CGROUP_V2, "cpu.stat")):
        if not (root / "cgroup.procs").exists() or (root is CGROUP_V2 and not (root / "cgroup.controllers").exists()):
            continue
        path = root / name
        try:
            path.mkdir()
        except OSError:
            continue
        if (path / counter).exists():
            return path
        with contextlib.suppress(OSError):
            path.rmdir()
    return None


def cgroup_cpu_seconds(path: Path) -> float:
    """CPU seconds counted by the cgroup at ``path`` (made by ``make_cpu_cgroup``)."""
    v1 = path / "cpuacct.usage"
    if v1.exists():
        return int(v1.read_text()) / 1e9
    for line in (path / "cpu.stat").read_text().splitlines():
        key, _, value = line.partition(" ")
        if key == "usage_usec":
            return int(value) / 1e6
    raise ValueError(f"{path}/cpu.stat has no usage_usec")


def machine_busy_seconds() -> float:
    """CPU seconds all cores of the machine have been busy since boot (/proc/stat: all but idle and iowait)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    ticks = [int(v) for v in fields[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _join_cgroup(path: Path | None) -> None:
    """preexec_fn: move the child (before it runs the command) into the cgroup."""
    if path is not None:
        with contextlib.suppress(OSError):
            (path / "cgroup.procs").write_text(str(os.getpid()))


def run_tree(args: list[str], *, env: dict[str, str] | None = None, cwd: str | None = None,
             log: IO[bytes] | None = None, interval: float = 0.2, settle_s: float = 60.0,
             use_cgroup: bool = True, rss_timeline: list[tuple[float, int]] | None = None) -> TreeRun:
    """Run ``args`` and measure it with everything it starts.

    CPU comes from a cgroup of its own where one can be made (``use_cgroup``; exact), else from
    RUSAGE_CHILDREN: then call ``become_subreaper()`` once before, or orphans' CPU is missed (``cpu_sampled_s``
    still sees them while they live). This process must have no other children running meanwhile: it reaps
    every child that exits (``waitpid(-1)``) so that adopted orphans do not linger as zombies. Wall time stops
    when the command's process exits; descendants still running then are waited for up to ``settle_s`` seconds
    (their CPU counts), then terminated. ``rss_timeline``, when given, receives (seconds since start, RSS of the
    tree) at every sample.
    """
    me = psutil.Process()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    seen: dict[tuple[int, float], float] = {}
    peak = 0
    group = make_cpu_cgroup() if use_cgroup else None
    busy_before = machine_busy_seconds()
    started = time.perf_counter()
    proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT if log else None,
                            preexec_fn=functools.partial(_join_cgroup, group))
    if group is not None and str(proc.pid) not in (group / "cgroup.procs").read_text().split():
        # The child could not join (no permission): fall back to RUSAGE_CHILDREN; the group stays empty.
        with contextlib.suppress(OSError):
            group.rmdir()
        group = None
    returncode: int | None = None
    ended = started

    def sample() -> None:
        nonlocal peak
        rss = 0
        for child in me.children(recursive=True):
            with contextlib.suppress(psutil.Error), child.oneshot():
                key = (child.pid, child.create_time())
                seen[key] = max(seen.get(key, 0.0), _cpu_of(child.cpu_times()))
                rss += child.memory_info().rss
        peak = max(peak, rss)
        if rss_timeline is not None:
            rss_timeline.append((round(time.perf_counter() - started, 2), rss))

    def reap() -> None:
        nonlocal returncode, ended
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == proc.pid:
                returncode = os.waitstatus_to_exitcode(status)
                proc.returncode = returncode  # reaped here: Popen must not wait for it again
                ended = time.perf_counter()

    while returncode is None:
        sample()
        reap()
        if returncode is None:
            time.sleep(interval)
    wall = ended - started
    deadline = time.perf_counter() + settle_s
    stragglers = 0
    while True:
        reap()
        left = me.children(recursive=True)
        if not left:
            break
        if time.perf_counter() >= deadline:
            stragglers = len(left)
            for child in left:
                with contextlib.suppress(psutil.Error):
                    child.terminate()
            _, alive = psutil.wait_procs(left, timeout=5)
            for child in alive:
                with contextlib.suppress(psutil.Error):
                    child.kill()
            time.sleep(0.5)
            reap()
            break
        sample()
        time.sleep(interval)
    settled = time.perf_counter() - ended
    busy = machine_busy_seconds() - busy_before
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    counted = None
    if group is not None:
        counted = cgroup_cpu_seconds(group)
        for _ in range(50):  # the group empties as its last processes are released
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
    return TreeRun(returncode=int(returncode), wall_s=wall, cpu_s=cpu if counted is None else counted,
                   cpu_method="rusage" if counted is None else "cgroup", cpu_rusage_s=cpu,
                   cpu_sampled_s=sum(seen.values()), peak_rss_bytes=peak, processes=len(seen),
                   stragglers=stragglers, settle_s=settled, machine_busy_s=busy)
