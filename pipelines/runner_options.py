"""Checks of the run options that `winnow run` and `winnow submit` share."""

from __future__ import annotations


def run_options_problem(wave_files: int, max_error_rate: float) -> str | None:
    """What is wrong with these run options, if anything (None: nothing)."""
    if wave_files < 1:
        return "--wave-files must be at least 1"
    if not 0.0 <= max_error_rate <= 1.0:
        return "--max-error-rate must be between 0 and 1"
    return None
