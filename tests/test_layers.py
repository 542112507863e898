"""The layers of docs/architecture.md beyond what import-linter sees: a domain package (crawler, extract, filters,
dedup) must not start the application either, as a ``python -m pipelines.app...`` child process or an
``importlib.import_module("pipelines.app...")`` string; import-linter reads only import statements."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOMAIN = ("crawler", "extract", "filters", "dedup")


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of ``path`` that are not docstrings: (line, value)."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


@pytest.mark.parametrize("package", DOMAIN)
def test_no_domain_module_names_the_application_in_code(package: str) -> None:
    found = [f"{path.relative_to(REPO)}:{line}: {value!r}" for path in sorted((REPO / package).rglob("*.py"))
             for line, value in _code_strings(path) if value.startswith("pipelines.app")]
    assert not found, "a domain package starts the application:\n" + "\n".join(found)


def test_the_check_sees_a_planted_string(tmp_path: Path) -> None:
    planted = tmp_path / "m.py"
    planted.write_text('"""pipelines.app in a docstring is fine."""\nCMD = ["-m", "pipelines.app.cli"]\n')
    assert _code_strings(planted) == [(2, "-m"), (2, "pipelines.app.cli")]
