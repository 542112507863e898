"""The command-line application: ``winnow`` and its sub-commands (run, crawl, images, submit, jobs, inspect,
report, demo, quality), on top of the engine (the rest of ``pipelines``) and the domain packages (``crawler``,
``extract``, ``filters``, ``dedup``). Nothing below imports this package (pyproject.toml's import-linter contracts,
docs/architecture.md)."""
