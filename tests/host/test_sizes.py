"""Small readable host modules: no class over 250 lines, no function over 80 (STYLE.md).

Sizes are counted as a reader meets them: from the ``class``/``def`` line to the
last line of the body, docstring and comments included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import linewise
import pytest

HOST = Path(linewise.__file__).resolve().parent
MAX_CLASS_LINES = 250
MAX_FUNCTION_LINES = 80


def _oversized(path: Path, root: Path = HOST) -> list[str]:
    """The classes and functions of one module that are longer than allowed."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            limit = MAX_CLASS_LINES
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            limit = MAX_FUNCTION_LINES
        else:
            continue
        assert node.end_lineno is not None
        size = node.end_lineno - node.lineno + 1
        if size > limit:
            where = f"{path.relative_to(root)}:{node.lineno}"
            found.append(f"{where} {node.name}: {size} lines (at most {limit})")
    return found


def test_the_host_package_is_found() -> None:
    assert (HOST / "stream" / "session.py").is_file()
    assert len(list(HOST.rglob("*.py"))) > 20


@pytest.mark.parametrize(
    "source",
    sorted(HOST.rglob("*.py")),
    ids=lambda path: str(path.relative_to(HOST)),
)
def test_no_host_class_or_function_is_too_long(source: Path) -> None:
    assert _oversized(source) == []


def test_the_measure_counts_a_long_function_and_a_long_class(tmp_path: Path) -> None:
    body = "\n".join(f"    x{n} = {n}" for n in range(MAX_FUNCTION_LINES))
    module = tmp_path / "long.py"
    module.write_text(
        f"def long():\n{body}\n\nclass Long:\n" + "\n".join(["    pass"] * MAX_CLASS_LINES) + "\n"
    )
    assert _oversized(module, tmp_path) == [
        f"long.py:1 long: {MAX_FUNCTION_LINES + 1} lines (at most {MAX_FUNCTION_LINES})",
        f"long.py:{MAX_FUNCTION_LINES + 3} Long: {MAX_CLASS_LINES + 1} lines "
        f"(at most {MAX_CLASS_LINES})",
    ]
