"""A package's public names are written down three ways, and the three must agree.

A package that imports its names on first use (a module ``__getattr__``, to keep
``import linewise`` cheap) lists each public name in ``__all__``, imports it under
``TYPE_CHECKING`` (what type checkers and readers see) and names the module it
is imported from at run time in a table (``_EXPORTS`` / ``_LAZY``). Written by
hand, the three drift apart: this reads every such module of the workspace and
checks that each lazy name is in all three, from the same module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "host" / "src", ROOT / "contracts" / "src", ROOT / "serve" / "src"]
SOURCES += sorted((ROOT / "plugins").glob("*/src"))
TABLES = ("_EXPORTS", "_LAZY")


@dataclass
class Surface:
    """What a module says about its public names."""

    package: str
    exported: list[str] = field(default_factory=list)  # __all__
    typed: dict[str, str] = field(default_factory=dict)  # name -> module, under TYPE_CHECKING
    table: dict[str, str] | None = None  # name -> module, imported on first use
    defined: set[str] = field(default_factory=set)  # bound when the module runs


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"


def _read(path: Path, source: Path) -> Surface:
    parts = path.relative_to(source).with_suffix("").parts
    # A relative module in a table is resolved against the package the module is in.
    package = ".".join(parts[:-1])
    surface = Surface(package)
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom) and inner.module:
                    for alias in inner.names:
                        surface.typed[alias.asname or alias.name] = inner.module
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not isinstance(target, ast.Name):
                    continue
                if target.id == "__all__" and isinstance(node.value, ast.List | ast.Tuple):
                    surface.exported = [ast.literal_eval(item) for item in node.value.elts]
                elif target.id in TABLES and isinstance(node.value, ast.Dict):
                    surface.table = ast.literal_eval(node.value)
                else:
                    surface.defined.add(target.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            surface.defined.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            surface.defined.update((alias.asname or alias.name) for alias in node.names)
    return surface


def _lazy_modules() -> list[tuple[str, Path, Path]]:
    found = []
    for source in SOURCES:
        for path in sorted(source.rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "\ndef __getattr__(" in text and any(f"\n{t} = {{" in text for t in TABLES):
                found.append((str(path.relative_to(ROOT)), path, source))
    return found


def test_the_workspace_has_packages_with_lazy_names() -> None:
    """The check below reads something (the host's and the contracts' top levels at least)."""
    names = {name for name, _, _ in _lazy_modules()}
    assert {
        "host/src/linewise/__init__.py",
        "contracts/src/linewise_contracts/__init__.py",
    } <= names


@pytest.mark.parametrize(("name", "path", "source"), _lazy_modules(), ids=str)
def test_each_lazy_name_is_exported_typed_and_tabled_from_one_module(
    name: str, path: Path, source: Path
) -> None:
    surface = _read(path, source)
    assert surface.table is not None
    table = {
        key: module if "." in module else f"{surface.package}.{module}"
        for key, module in surface.table.items()
    }
    exported = set(surface.exported)
    lazy = exported - surface.defined
    problems = [f"{n}: in __all__, neither defined nor in the table" for n in lazy - set(table)]
    problems += [f"{n}: in the table, not in __all__" for n in set(table) - exported]
    problems += [
        f"{n}: in the table, not imported under TYPE_CHECKING"
        for n in table
        if n not in surface.typed
    ]
    problems += [
        f"{n}: imported at run time from {table[n]}, under TYPE_CHECKING from {surface.typed[n]}"
        for n in table
        if n in surface.typed and surface.typed[n] != table[n]
    ]
    problems += [
        f"{n}: imported under TYPE_CHECKING and exported, but not lazy"
        for n in surface.typed
        if n in exported and n not in table and n not in surface.defined
    ]
    assert sorted(problems) == [], name


def _one_module_lazy() -> list[tuple[str, Path, Path, str]]:
    """Modules whose ``__getattr__`` serves every lazy name from one module named in it."""
    found = []
    for source in SOURCES:
        for path in sorted(source.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if not (isinstance(node, ast.FunctionDef) and node.name == "__getattr__"):
                    continue
                modules = {
                    call.args[0].value
                    for call in ast.walk(node)
                    if isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Name)
                    and call.func.id == "import_module"
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                    and isinstance(call.args[0].value, str)
                }
                if len(modules) == 1:
                    found.append((str(path.relative_to(ROOT)), path, source, modules.pop()))
    return found


def test_the_sessions_package_serves_its_names_from_one_module() -> None:
    assert "host/src/linewise/sessions/__init__.py" in {n for n, *_ in _one_module_lazy()}


@pytest.mark.parametrize(("name", "path", "source", "module"), _one_module_lazy(), ids=str)
def test_each_name_served_from_one_module_is_typed_from_it(
    name: str, path: Path, source: Path, module: str
) -> None:
    surface = _read(path, source)
    lazy = set(surface.exported) - surface.defined
    problems = [f"{n}: not imported under TYPE_CHECKING" for n in lazy if n not in surface.typed]
    problems += [
        f"{n}: served from {module}, typed from {surface.typed[n]}"
        for n in lazy
        if n in surface.typed and surface.typed[n] != module
    ]
    problems += [
        f"{n}: imported under TYPE_CHECKING from {module}, not in __all__"
        for n, typed in surface.typed.items()
        if typed == module and n not in surface.exported
    ]
    assert sorted(problems) == [], name
