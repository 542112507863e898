"""A Ray cluster of several nodes on this machine, started the way the README's cluster section starts one: `ray
start --head` and `ray start --address HEAD` processes, each node with its own ``--temp-dir`` (its own object
spilling, logs and sockets: the nodes share no folder, as machines of a cloud cluster do not), with free ports and
token auth on (Ray 2.60's default). Only these processes are ever stopped: each node's process group, then whatever
still runs under its temp dir; never `ray stop`, which would stop every Ray on the machine.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

RAY = Path(sys.executable).parent / "ray"
NODE_PORT_FLAGS = ("node-manager-port", "object-manager-port", "metrics-export-port", "runtime-env-agent-port",
                   "dashboard-agent-listen-port", "dashboard-agent-grpc-port")
HEAD_PORT_FLAGS = ("port", "ray-client-server-port", *NODE_PORT_FLAGS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Node:
    def __init__(self, head_address: str | None, env: dict[str, str], cpus: int = 1) -> None:
        self.temp_dir = tempfile.mkdtemp(prefix="wn", dir="/tmp")  # short: Ray's socket paths live under it
        flags = HEAD_PORT_FLAGS if head_address is None else NODE_PORT_FLAGS
        self.ports = {flag: free_port() for flag in flags}
        where = ["--head", "--include-dashboard=false"] if head_address is None else ["--address", head_address]
        cmd = [str(RAY), "start", *where, "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", str(cpus),
               "--temp-dir", self.temp_dir, "--disable-usage-stats",
               *(f"--{flag}={port}" for flag, port in self.ports.items())]
        self._log = open(os.path.join(self.temp_dir, "node.log"), "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(cmd, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)
        self.address = f"127.0.0.1:{self.ports['port']}" if head_address is None else head_address

    def log_tail(self) -> str:
        return Path(self.temp_dir, "node.log").read_text()[-3000:]

    def worker_logs(self) -> list[Path]:
        """The logs of the Ray worker processes this node ran (one per worker process)."""
        return sorted(Path(self.temp_dir).glob("session_*/logs/worker-*.out"))

    def stop(self) -> None:
        import psutil

        for sig, wait_s in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                continue
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for p in psutil.process_iter(["cmdline"]):
            if any(self.temp_dir in arg for arg in (p.info["cmdline"] or [])):
                with contextlib.suppress(psutil.Error):
                    p.kill()
        self._log.close()
        shutil.rmtree(self.temp_dir, ignore_errors=True)


class Cluster:
    """A head and ``workers`` more nodes, ``cpus`` CPUs each; ``env`` for every Ray process and client."""

    def __init__(self, workers: int = 1, cpus: int = 1) -> None:
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("RAY_ADDRESS", "RAY_API_SERVER_ADDRESS", "RAY_AUTH_TOKEN_PATH")}
        self.env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=uuid.uuid4().hex)
        for attempt in (1, 2):  # a free port taken by another process before the head bound it: once more
            self.nodes = [Node(None, self.env, cpus)]
            self.address = self.nodes[0].address
            try:
                self._wait_for_port()
                self._wait_for(1)
                self.nodes += [Node(self.address, self.env, cpus) for _ in range(workers)]
                self._wait_for(1 + workers)
                return
            except BaseException:
                self.stop()
                if attempt == 2:
                    raise

    def _wait_for_port(self, timeout: float = 120) -> None:
        """Until the head's GCS port answers (a client asked before it does may wait for minutes)."""
        host, port = self.address.split(":")
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection((host, int(port)), timeout=1).close()
                return
            except OSError:
                pass
            if self.nodes[0].proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Ray head did not come up:\n{self.nodes[0].log_tail()}")
            time.sleep(0.5)

    def _wait_for(self, nodes: int, timeout: float = 180) -> None:
        """Until ``nodes`` nodes are alive (asked from a short-lived client, as any driver would)."""
        probe = ("import ray, sys, time\nray.init(address=sys.argv[1], logging_level='ERROR')\n"
                 "t = time.monotonic()\n"
                 "while sum(n['Alive'] for n in ray.nodes()) < int(sys.argv[2]) and time.monotonic() - t < 90:\n"
                 "    time.sleep(0.5)\n"
                 "sys.exit(0 if sum(n['Alive'] for n in ray.nodes()) >= int(sys.argv[2]) else 1)\n")
        deadline = time.monotonic() + timeout
        while True:
            try:
                done = subprocess.run([sys.executable, "-c", probe, self.address, str(nodes)], env=self.env,
                                      capture_output=True, text=True, timeout=100)
                if done.returncode == 0:
                    return
                why = done.stderr[-1500:]
            except subprocess.TimeoutExpired:
                why = "the probe's client did not connect in 100 s"
            dead = [n for n in self.nodes if n.proc.poll() is not None]
            if dead or time.monotonic() > deadline:
                raise RuntimeError(f"the Ray cluster did not come up ({why}):\n"
                                   + "\n".join(n.log_tail() for n in self.nodes))
            time.sleep(1)

    def stop(self) -> None:
        for node in reversed(self.nodes):
            node.stop()
