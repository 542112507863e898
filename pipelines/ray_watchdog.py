"""Stops the embedded Ray's processes when the driver dies without shutting Ray down (kill -9, the OOM killer).

``ray.init()`` in the driver starts Ray's head processes (GCS, raylet, dashboard, monitors) and the raylet starts
workers and agents. On a normal exit or an exception Ray's own shutdown stops them. After a kill -9 of the driver
the GCS and raylet go with it (Ray ties them to the driver), but the raylet's dashboard and runtime-env agents
(about 210 MB together, measured here) lived on for about a minute, and more when the machine is busy.

The watchdog is a small process in a session of its own (so a Ctrl-C or a kill of the driver's process group does
not take it first). It holds the read end of a pipe whose write end only the driver has: end of file means the
driver is gone, however it ended. Meanwhile it notes the driver's descendants every ``SNAPSHOT_S`` seconds (pid and
start time, so a reused pid is never hit); at the end it stops those still running (SIGTERM, then SIGKILL after
``GRACE_S``). On a normal exit Ray has stopped them already and there is nothing left to do.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys

import psutil

SNAPSHOT_S = 2.0
GRACE_S = 5.0

_watchdog: subprocess.Popen | None = None


def start() -> None:
    """Start this process's watchdog (once); call it right after starting an embedded Ray."""
    global _watchdog
    if _watchdog is not None and _watchdog.poll() is None:
        return
    _watchdog = subprocess.Popen([sys.executable, "-m", "pipelines.ray_watchdog", str(os.getpid())],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, start_new_session=True,
                                 close_fds=True)


def watch(driver_pid: int, fd: int = 0) -> int:
    """Until ``fd`` reaches end of file, note the driver's descendants; then stop the ones still running.
    Returns how many were stopped."""
    try:
        driver = psutil.Process(driver_pid)
    except psutil.NoSuchProcess:
        return 0
    seen: dict[int, float] = {}
    me = os.getpid()
    while True:
        ready, _, _ = select.select([fd], [], [], SNAPSHOT_S)
        if ready and not os.read(fd, 4096):
            break
        try:
            for child in driver.children(recursive=True):
                if child.pid != me:  # the watchdog is the driver's child too
                    seen.setdefault(child.pid, child.create_time())
        except psutil.Error:  # the driver is going: its pipe end closes next
            continue
    left = []
    for pid, started in seen.items():
        try:
            proc = psutil.Process(pid)
            if proc.create_time() == started and proc.status() != psutil.STATUS_ZOMBIE:
                proc.terminate()
                left.append(proc)
        except psutil.Error:
            continue
    _, alive = psutil.wait_procs(left, timeout=GRACE_S)
    for proc in alive:
        try:
            proc.kill()
        except psutil.Error:
            continue
    return len(left)


if __name__ == "__main__":
    watch(int(sys.argv[1]))
