"""The embedded Ray's watchdog (pipelines/ray_watchdog.py): after a kill -9 of the driver, none of the processes
the driver started outlive it for long; after a normal exit the watchdog goes too."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from pipelines import ray_watchdog

ROOT = Path(__file__).resolve().parents[2]

DRIVER = """
import json, sys, time
sys.path.insert(0, {root!r})
import psutil, ray
from pipelines.ray_data import init_ray
init_ray(None)

@ray.remote
def square(x):
    return x * x

assert ray.get([square.remote(i) for i in range(4)]) == [0, 1, 4, 9]
time.sleep(2.5)  # a snapshot of the watchdog sees the workers
me = psutil.Process()
print(json.dumps([[c.pid, c.create_time()] for c in me.children(recursive=True)]), flush=True)
time.sleep(600)
"""


def alive(pid: int, started: float) -> bool:
    try:
        proc = psutil.Process(pid)
        return proc.create_time() == started and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


@pytest.mark.slow
@pytest.mark.ray
def test_ray_processes_go_with_a_killed_driver():
    driver = subprocess.Popen([sys.executable, "-c", DRIVER.format(root=str(ROOT))], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        line = driver.stdout.readline()
        started = json.loads(line)
        names = {psutil.Process(pid).name() for pid, _ in started if alive(pid, _)}
        assert any("raylet" in n for n in names) and len(started) >= 6, names  # the head and its agents exist
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait()
        deadline = time.monotonic() + 30  # without the watchdog the agents lived on past a minute
        while time.monotonic() < deadline and any(alive(pid, t) for pid, t in started):
            time.sleep(0.5)
        survivors = [(pid, psutil.Process(pid).name()) for pid, t in started if alive(pid, t)]
        assert not survivors
    finally:
        if driver.poll() is None:
            driver.kill()


STAND_IN = """
import subprocess, sys, time
sys.path.insert(0, {root!r})
from pipelines import ray_watchdog
child = subprocess.Popen(["sleep", "300"])
ray_watchdog.start()
time.sleep(ray_watchdog.SNAPSHOT_S + 1)
print(child.pid, ray_watchdog._watchdog.pid, flush=True)
if {exit_now}:
    child.kill(); child.wait()
    sys.exit(0)
time.sleep(600)
"""


def gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in pids):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("exit_now", [False, True], ids=["killed", "normal-exit"])
def test_the_watchdog_stops_what_the_driver_left_and_then_itself(exit_now):
    driver = subprocess.Popen([sys.executable, "-c", STAND_IN.format(root=str(ROOT), exit_now=exit_now)],
                              stdout=subprocess.PIPE, text=True)
    try:
        child, watchdog = map(int, driver.stdout.readline().split())
        assert psutil.pid_exists(watchdog)
        if not exit_now:
            driver.send_signal(signal.SIGKILL)
        driver.wait()
        assert gone_within([child, watchdog], 10 + ray_watchdog.GRACE_S)
    finally:
        if driver.poll() is None:
            driver.kill()
