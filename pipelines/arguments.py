"""Checks of a step's constructor arguments, shared by every package's steps: config loading builds every step at
start-up, so a wrong value in a YAML fails there, naming the argument, before any data moves."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any


def check_number(name: str, value: Any, low: float | None = None, high: float | None = None,
                 integer: bool = False) -> float:
    """Validate a numeric step argument at construction (config load), naming it in the error."""
    ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    if ok and integer:
        ok = isinstance(value, int)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        bounds = f" in [{low}, {high}]" if high is not None else (f" >= {low}" if low is not None else "")
        raise ValueError(f"{name} must be {'an integer' if integer else 'a number'}{bounds}, got {value!r}")
    return value


def check_model(value: Any, what: str) -> str:
    """Validate a step's ``model`` argument: ``default`` (the model the package ships) or the path of an existing file
    (``what`` names the kind of model in the error)."""
    if not isinstance(value, str) or not value:
        raise ValueError(f"model must be 'default' or the path of {what}, got {value!r}")
    if value != "default" and not Path(value).is_file():
        raise ValueError(f"model {value!r} is not a file")
    return value
