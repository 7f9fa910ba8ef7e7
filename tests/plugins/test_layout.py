"""Every first-party plugin, and the project ``linewise new`` makes, has the one layout.

CONTRIBUTING.md ("The layout of a plugin") documents it: the project's
``pyproject.toml``, ``README.md`` and ``LICENSE``; in the import package the
declared ``agent`` in ``__init__.py``, ``py.typed`` and ``samples/``; each
format's code in the module named for its role (``parser``, ``sniff``,
``summary``, ``formatter``, ``environment``), a session-file format's own code
in the ``session/`` subpackage, and a further format's own code in a subpackage
of its own (Codex's ``app_server/``); and tests. The checks read plugins/ and
resolve each declared format, so a plugin added or moved later is held to it too.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from linewise_contracts.agent import FORMAT_CALLABLES, Agent, Format

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = tuple(sorted(path.parent.name for path in (ROOT / "plugins").glob("*/pyproject.toml")))

#: The module (last dotted part) each callable of a format lives in.
ROLES = {
    "create_stdout_parser": "parser",
    "parse_stdout_line": "parser",
    "sniff": "sniff",
    "summarize_run": "summary",
    "format_stdout_line": "formatter",
    "format_entries": "formatter",
    "check_environment": "environment",
    "session_stores": "store",
    "session_records": "store",
    "session_keys": "store",
}

#: Top-level module names of the flat session layout the ``session/`` subpackage replaced.
FLAT_SESSION = re.compile(r"(session|session_\w+|\w+_session|store|transcript\w*)\.py")

#: linewise-segments is a library first (the segment engine is its package, used
#: without linewise); its plugin is the one module ``linewise_segments.plugin``,
#: public since 1.0. CONTRIBUTING.md says so under the layout.
LIBRARY_PLUGIN = {"segments": "linewise_segments.plugin"}


def _package_folder(project: Path) -> Path:
    return next(path for path in (project / "src").iterdir() if (path / "__init__.py").is_file())


def layout_problems(project: Path, agent: Agent, tests: Path) -> list[str]:
    """What a plugin project at ``project`` (declaring ``agent``) lacks or has out of place."""
    folder = _package_folder(project)
    package = folder.name
    problems = [
        f"no {name}" for name in ("pyproject.toml", "README.md") if not (project / name).is_file()
    ]
    problems += [f"no {package}/py.typed"] if not (folder / "py.typed").is_file() else []
    samples = folder / "samples"
    if not any(
        line.strip()
        for path in (samples.rglob("*") if samples.is_dir() else ())
        if path.is_file()
        for line in path.read_text("utf-8", errors="replace").splitlines()
    ):
        problems.append(f"no sample line in {package}/samples/")
    if not any(tests.glob("test_*.py")):
        problems.append(f"no tests in {tests}")
    problems += [
        f"{package}/{path.name}: a session store's code belongs in {package}/session/"
        for path in sorted(folder.glob("*.py"))
        if FLAT_SESSION.fullmatch(path.name)
    ]
    formats = agent.formats
    for fmt in formats:
        fmt.resolve()
    session_formats = [fmt for fmt in formats if fmt.session_stores is not None]
    others = [fmt for fmt in formats if fmt.session_stores is None]
    shared = {id(getattr(fmt, name)) for fmt in others for name in FORMAT_CALLABLES}
    for fmt in formats:
        for name in FORMAT_CALLABLES:
            value = getattr(fmt, name)
            module = getattr(value, "__module__", None)
            if value is None or not isinstance(module, str):
                continue
            if module != package and not module.startswith(f"{package}."):
                continue  # another distribution's code (Amp reads Claude's stream-json)
            where = module.removeprefix(f"{package}.") if module != package else ""
            problem = _misplaced(name, where, id(value) in shared, fmt in session_formats)
            if problem:
                problems.append(f"{fmt.adapter_type}.{name} in {module}: {problem}")
    return problems


def _misplaced(name: str, where: str, shared: bool, session: bool) -> str | None:
    """Why callable ``name``, defined in the package's module ``where``, is out of place."""
    role = ROLES[name]
    parts = where.split(".") if where else []
    if name == "check_environment":
        return None if parts == ["environment"] else "belongs in environment.py"
    if session:
        if shared or parts[:1] == ["session"]:
            return None  # shared code is placed by the other format's rule
        if parts == ["sniff"] and name == "sniff":
            return None  # beside the stdout's detection when both read the same events
        return "a session format's own code belongs in session/"
    # A format's code: the role's module at the top level, or in the format's own subpackage.
    if parts[-1:] == [role] and len(parts) <= 2 and parts[:1] != ["session"]:
        return None
    return f"belongs in {role}.py (or <format>/{role}.py)"


def _agent(plugin: str) -> tuple[Path, Agent]:
    project = ROOT / "plugins" / plugin
    agent = importlib.import_module(_package_folder(project).name).agent
    assert type(agent) is Agent
    return project, agent


@pytest.mark.parametrize("plugin", [p for p in PLUGINS if p not in LIBRARY_PLUGIN])
def test_every_plugin_has_the_layout_contributing_documents(plugin: str) -> None:
    project, agent = _agent(plugin)
    tests = ROOT / "tests" / "plugins" / _package_folder(project).name.removeprefix("linewise_")
    assert layout_problems(project, agent, tests) == []


def test_the_library_plugin_keeps_its_formats_in_its_plugin_module() -> None:
    project, agent = _agent("segments")
    for fmt in agent.formats:
        fmt.resolve()
        modules = {getattr(getattr(fmt, n), "__module__", None) for n in FORMAT_CALLABLES}
        assert modules - {None} == {LIBRARY_PLUGIN["segments"]}
    assert not [
        path.name
        for path in _package_folder(project).glob("*.py")
        if FLAT_SESSION.fullmatch(path.name)
    ]


def test_a_flat_session_module_or_a_misplaced_callable_is_named(tmp_path: Path) -> None:
    project, agent = _agent("kimi")
    tests = ROOT / "tests" / "plugins" / "kimi"
    assert layout_problems(project, agent, tests) == []
    copy = tmp_path / "kimi"
    subprocess.run(["cp", "-r", str(project), str(copy)], check=True)
    (copy / "src" / "linewise_kimi" / "store.py").write_text('"""Flat."""\n', "utf-8")
    (copy / "src" / "linewise_kimi" / "py.typed").unlink()
    moved = Agent(
        "kimi",
        label="Kimi",
        formats=[
            Format("kimi_local", create_stdout_parser="linewise_kimi.summary:summarize_run"),
            Format(
                "kimi_session",
                create_stdout_parser="linewise_kimi.parser:create_stdout_parser",
                session_stores="linewise_kimi.session.store:session_stores",
            ),
        ],
    )
    assert layout_problems(copy, moved, tmp_path) == [
        "no linewise_kimi/py.typed",
        f"no tests in {tmp_path}",
        "linewise_kimi/store.py: a session store's code belongs in linewise_kimi/session/",
        "kimi_local.create_stdout_parser in linewise_kimi.summary: belongs in parser.py"
        " (or <format>/parser.py)",
        "kimi_session.create_stdout_parser in linewise_kimi.parser: a session format's own"
        " code belongs in session/",
    ]


def test_a_new_plugin_is_the_smallest_plugin_of_the_layout(tmp_path: Path) -> None:
    from linewise.cli.commands.scaffold import scaffold

    written = scaffold("acme", tmp_path)
    project = written[0].parent
    probe = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from test_layout import layout_problems; from pathlib import Path;"
        "from linewise_acme import agent;"
        "print(json.dumps(layout_problems(Path(sys.argv[3]), agent, Path(sys.argv[3]) / 'tests')))"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            probe,
            str(project / "src"),
            str(Path(__file__).parent),
            str(project),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    source = project / "src" / "linewise_acme"
    # The smallest: the agent, its parser and its sniff; nothing a first format may go without.
    assert sorted(path.name for path in source.iterdir()) == [
        "__init__.py",
        "parser.py",
        "py.typed",
        "samples",
        "sniff.py",
    ]


def documented_layout() -> dict[str, bool]:
    """CONTRIBUTING.md's layout: each path under the project, and whether ``linewise new`` makes it."""
    text = (ROOT / "CONTRIBUTING.md").read_text("utf-8")
    block = (
        text.split("### The layout of a plugin", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    )
    found: dict[str, bool] = {}
    parents: list[tuple[int, str]] = []
    for line in block.splitlines()[1:]:  # the first names the project folder
        matched = re.match(r"( *)(\S+)(?:\s+(new)\b)?", line)
        if matched is None or not matched[2].endswith(
            ("/", ".py", ".toml", ".md", ".typed", "LICENSE")
        ):
            continue  # a description's continuation
        depth = len(matched[1])
        parents = [(d, p) for d, p in parents if d < depth]
        path = "".join(p for _, p in parents) + matched[2]
        found[path] = matched[3] == "new"
        if matched[2].endswith("/"):
            parents.append((depth, matched[2]))
    return found


def test_contributing_documents_the_layout_the_checks_hold_and_new_makes(tmp_path: Path) -> None:
    from linewise.cli.commands.scaffold import scaffold

    documented = documented_layout()
    source = "src/linewise_acme/"
    # Every role module the checks place a callable in is documented where they look.
    for role in set(ROLES.values()) - {"store"}:
        assert f"{source}{role}.py" in documented, role
    assert f"{source}session/" in documented and f"{source}samples/" in documented
    # What `linewise new` writes is what the layout marks "new", no more and no less.
    root = scaffold("acme", tmp_path)[0].parent
    made = set()
    for path in root.rglob("*"):
        relative = path.relative_to(root).as_posix() + ("/" if path.is_dir() else "")
        made.add(relative if relative in documented else relative.rsplit("/", 1)[0] + "/")
    assert made - {"src/", "src/linewise_acme/"} == {p for p, new in documented.items() if new}
