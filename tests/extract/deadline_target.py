"""A function for DeadlineWorker tests to run in the child: sleeps, dies, raises, answers in size, names a pool."""

from __future__ import annotations

import os
import time


def act(kind: str, value: float | int) -> object:
    if kind == "sleep":
        time.sleep(value)
        return value
    if kind == "die":
        os._exit(int(value))
    if kind == "raise":
        raise ValueError(f"asked to raise {value}")
    if kind == "echo":  # value: bytes of any size, answered with their length
        return len(value)
    if kind == "big":
        return "x" * int(value)
    if kind == "arrow_pool":  # which allocator Arrow's C++ uses in the child
        import pyarrow as pa

        return pa.default_memory_pool().backend_name
    raise AssertionError(kind)
