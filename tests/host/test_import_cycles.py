"""No import cycle in the host, counting every import that can run, deferred or not.

Read from the source (the AST), never by importing: an import inside a
function or behind a lazy table of module names (``"linewise.stream.session"``,
or ``f"linewise.render.{name}"`` with the names beside it) is an edge like any
other, because deferring an import hides a cycle without removing it. Imports
under ``if TYPE_CHECKING:`` never run (they name the types of annotations) and
are not counted; nor is a string naming one of the module's own packages (a
resource anchor such as ``files("linewise.cli")``: a package is imported
before any of its modules runs). A cycle is named with the file and line of
each of its imports. The stream package, the compiled hot path, imports
nothing of the stages that use it.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import linewise
import pytest

HOST = Path(linewise.__file__).resolve().parent

#: Packages the stream serves; stream/ imports none of them (nor the public API module).
ABOVE_THE_STREAM = ("transcript", "render", "sessions", "export", "run", "cli")

#: The host's stages from the bottom up, as ARCHITECTURE.md lists them: a module imports
#: only from its own stage and the ones before it. ``hookspecs`` stands with ``settings``
#: (which holds the errors) at the bottom: every stage may raise the errors and serve the hooks.
STAGES = (
    ("settings", "hookspecs"),
    ("plugins",),
    ("stream",),
    ("transcript",),
    ("render",),
    ("sessions",),
    ("export",),
    ("run",),
    ("cli",),
)

#: Upward imports still there, each with why, until its owner removes it: none. An edge
#: missing from this table fails the test, and so does a listed edge that is gone.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` at ``where`` (path:line)."""

    source: str
    target: str
    where: str


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module under ``root`` (the folder of ``package``) by its dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: dict[str, Path]
) -> list[str]:
    """The known modules an import statement names (a ``from`` import's submodules apart)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names
    ]


def _resolved(name: str, known: dict[str, Path]) -> str | None:
    """``name`` or the nearest package holding it, when it is a known module."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _lazy_prefixes(tree: ast.AST, known: dict[str, Path]) -> set[str]:
    """Packages named as the constant start of an f-string (``f"linewise.render.{name}"``)."""
    prefixes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                package = first.value.rstrip(".")
                if first.value.endswith(".") and package in known:
                    prefixes.add(package)
    return prefixes


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (never run)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                skipped.update(id(inner) for inner in ast.walk(child))
    return skipped


def import_edges(known: dict[str, Path], root: Path) -> list[Edge]:
    """Every import between known modules that can run, wherever it stands in the module."""
    edges: list[Edge] = []
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        prefixes = _lazy_prefixes(tree, known)
        skipped = _type_checking_only(tree)
        ancestors = {module.rsplit(".", depth)[0] for depth in range(1, module.count(".") + 1)}
        if is_package:
            ancestors.add(module)
        where = str(path.relative_to(root.parent))
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets = _imported(node, module, is_package, known)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                # A lazy table: a module's full name, or a name beside an f-string prefix.
                # (Its own packages' names are anchors, files() or a logger's name.)
                name = node.value.partition(":")[0]
                targets = [name] if name in known and name not in ancestors else []
                targets += [f"{p}.{name}" for p in prefixes if f"{p}.{name}" in known]
            for target in targets:
                resolved = _resolved(target, known)
                if resolved is not None and resolved != module:
                    edges.append(Edge(module, resolved, f"{where}:{node.lineno}"))
    return edges


def cycles(edges: list[Edge]) -> list[list[Edge]]:
    """One shortest cycle through each group of modules that import each other."""
    graph: dict[str, dict[str, Edge]] = {}
    for edge in edges:
        graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
    found: list[list[Edge]] = []
    covered: set[str] = set()
    for start in sorted(graph):
        if start in covered:
            continue
        cycle = _shortest_cycle(graph, start)
        if cycle:
            found.append(cycle)
            covered.update(edge.source for edge in cycle)
    return found


def _shortest_cycle(graph: dict[str, dict[str, Edge]], start: str) -> list[Edge]:
    """The shortest way from ``start`` back to itself, as the imports taken (breadth first)."""
    came: dict[str, Edge] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for target, edge in sorted(graph.get(module, {}).items()):
            if target == start:
                path = [edge]
                while path[0].source != start:
                    path.insert(0, came[path[0].source])
                return path
            if target not in came:
                came[target] = edge
                queue.append(target)
    return []


def described(cycle: list[Edge]) -> str:
    return " -> ".join([cycle[0].source, *(f"{e.target} ({e.where})" for e in cycle)])


def test_the_host_has_no_import_cycle_deferred_or_not() -> None:
    known = module_names(HOST, "linewise")
    assert [described(cycle) for cycle in cycles(import_edges(known, HOST))] == []


def test_the_stream_imports_nothing_of_the_stages_that_use_it() -> None:
    known = module_names(HOST, "linewise")
    above = [f"linewise.{name}" for name in ABOVE_THE_STREAM]

    def is_above(target: str) -> bool:
        return target == "linewise" or any(
            target == package or target.startswith(f"{package}.") for package in above
        )

    upward = [
        f"{edge.where}: {edge.source} imports {edge.target}"
        for edge in import_edges(known, HOST)
        if edge.source.startswith("linewise.stream") and is_above(edge.target)
    ]
    assert upward == []


def stage_of(module: str) -> int | None:
    """The place of ``module``'s stage in :data:`STAGES` (None for the public API module)."""
    top = module.split(".")[1] if "." in module else None
    for place, names in enumerate(STAGES):
        if top in names:
            return place
    return None


def upward_edges(edges: list[Edge]) -> dict[tuple[str, str], str]:
    """Each import of a later stage by an earlier one, with where it stands."""
    found: dict[tuple[str, str], str] = {}
    for edge in edges:
        source, target = stage_of(edge.source), stage_of(edge.target)
        if source is not None and target is not None and target > source:
            found.setdefault((edge.source, edge.target), edge.where)
    return found


def test_every_host_module_is_in_a_stage() -> None:
    known = module_names(HOST, "linewise")
    assert [name for name in known if name != "linewise" and stage_of(name) is None] == []


def test_no_stage_imports_a_later_one() -> None:
    found = upward_edges(import_edges(module_names(HOST, "linewise"), HOST))
    new = [f"{where}: {source} imports {target}" for (source, target), where in found.items()]
    new = [line for line, key in zip(new, found, strict=True) if key not in KNOWN_UPWARD]
    assert new == []
    assert sorted(set(KNOWN_UPWARD) - set(found)) == [], "gone: remove it from KNOWN_UPWARD"


def test_an_upward_import_is_found_deferred_or_not(tmp_path: Path) -> None:
    known, root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "plugins/__init__.py": "",
            "plugins/guard.py": "def stop():\n    from pkg.run.signals import held\n",
            "run/__init__.py": "",
            "run/signals.py": "from pkg.plugins.guard import stop\n",
        },
    )
    found = upward_edges(import_edges(known, root))
    assert found == {("pkg.plugins.guard", "pkg.run.signals"): "pkg/plugins/guard.py:2"}


@pytest.mark.parametrize(
    ("source", "target"),
    [("sessions", "export"), ("export", "cli"), ("export", "run"), ("render", "export")],
)
def test_export_stands_above_sessions_and_below_run(
    tmp_path: Path, source: str, target: str
) -> None:
    known, root = _package(
        tmp_path,
        {
            "__init__.py": "",
            f"{source}/__init__.py": "",
            f"{source}/a.py": f"from pkg.{target}.b import B\n",
            f"{target}/__init__.py": "",
            f"{target}/b.py": "B = 1\n",
        },
    )
    found = upward_edges(import_edges(known, root))
    assert list(found) == [(f"pkg.{source}.a", f"pkg.{target}.b")]
    assert not upward_edges(
        import_edges(
            *_package(
                tmp_path / "down",
                {
                    "__init__.py": "",
                    f"{target}/__init__.py": "",
                    f"{target}/b.py": f"from pkg.{source}.a import A\n",
                    f"{source}/__init__.py": "",
                    f"{source}/a.py": "A = 1\n",
                },
            )
        )
    )


def _package(tmp_path: Path, files: dict[str, str]) -> tuple[dict[str, Path], Path]:
    root = tmp_path / "pkg"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return module_names(root, "pkg"), root


@pytest.mark.parametrize(
    "hidden",
    [
        "def later():\n    from pkg import a\n",
        'from importlib import import_module\nTABLE = {"A": "pkg.a"}\n',
        'from importlib import import_module\nNAMES = ("a",)\nf = lambda n: import_module(f"pkg.{n}")\n',
        "from . import a\n",
    ],
    ids=["function-level", "lazy-table", "f-string-table", "relative"],
)
def test_a_hidden_import_still_closes_a_cycle_and_is_named(tmp_path: Path, hidden: str) -> None:
    known, root = _package(
        tmp_path, {"__init__.py": "", "a.py": "from pkg.b import B\n", "b.py": hidden}
    )
    found = cycles(import_edges(known, root))
    assert len(found) == 1
    assert described(found[0]).startswith("pkg.a -> pkg.b (pkg/a.py:1) -> pkg.a (pkg/b.py:")


def test_imports_one_way_make_no_cycle(tmp_path: Path) -> None:
    """One way only; and a type named under TYPE_CHECKING, or the own package as an anchor."""
    known, root = _package(
        tmp_path,
        {
            "__init__.py": "from pkg.a import A\n",
            "a.py": "from pkg.b import B\nA = 1\n",
            "b.py": (
                "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg.a import A\n"
                'RESOURCES = "pkg"\nB = 1\n'
            ),
        },
    )
    assert cycles(import_edges(known, root)) == []
