"""Filters: one file per filter family, each a small ``pipelines.step.Step``."""
