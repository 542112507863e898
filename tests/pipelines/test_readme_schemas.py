"""The user guide's "Output schemas, column by column" (docs/guide.md) names every column of every output, and no
other."""

from __future__ import annotations

import re
from pathlib import Path

from pipelines.records import COMMON_NAMES, OUTPUT_DIRS, TAIL_NAMES, schema_of

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide.md"


def _documented() -> dict[str, set[str]]:
    section = GUIDE.read_text().split("## Output schemas, column by column", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, set[str]] = {}
    current = "common"
    for line in section.splitlines():
        heading = re.match(r"`(\w+)/`", line)
        if heading:
            current = heading.group(1)
        elif line.startswith("| `"):
            names = re.findall(r"`(\w+)`", line.split("|")[1])
            tables.setdefault(current, set()).update(names)
    return tables


def test_every_output_column_is_documented_once() -> None:
    tables = _documented()
    assert tables["common"] == set(COMMON_NAMES) | set(TAIL_NAMES)
    for kind, folder in OUTPUT_DIRS.items():
        own = set(schema_of(kind).names) - set(COMMON_NAMES) - set(TAIL_NAMES)
        assert tables[folder] == own, folder
