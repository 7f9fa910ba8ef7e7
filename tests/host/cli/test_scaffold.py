"""linewise new: a scaffolded plugin passes linewise check and its own tests, installs, and lists."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from linewise.cli.commands.scaffold import scaffold

LINEWISE = str(Path(sys.executable).with_name("linewise"))


def _run(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, capture_output=True, text=True, cwd=cwd, env=env, timeout=600, check=False
    )


def test_a_new_plugin_works_out_of_the_box(tmp_path: Path) -> None:
    done = _run(LINEWISE, "new", "acme-agent", "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    root = tmp_path / "linewise-acme-agent"
    assert f"created {root}" in done.stdout
    assert (root / "src" / "linewise_acme_agent" / "samples" / "sample.jsonl").is_file()
    assert (root / "src" / "linewise_acme_agent" / "py.typed").is_file()
    pyproject = (root / "pyproject.toml").read_text()
    # One declared object (contract 1.5) in a light package (1.8), its entry point naming
    # the format.
    assert 'acme_agent_local = "linewise_acme_agent:agent.acme_agent_local"' in pyproject
    assert '"linewise-contracts>=1.8,<2"' in pyproject

    check = _run(LINEWISE, "check", str(root), "--json", "--examples", "100")
    report = json.loads(check.stdout)
    assert check.returncode == 0, check.stdout
    assert report["counts"]["fail"] == 0 and report["counts"]["warn"] == 0

    own = _run(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--linewise-examples",
        "50",
        cwd=root,
    )
    assert own.returncode == 0, own.stdout[-3000:]
    assert " passed" in own.stdout and "failed" not in own.stdout

    target = tmp_path / "installed"
    pip = _run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "--quiet",
        "--target",
        str(target),
        str(root),
    )
    assert pip.returncode == 0, pip.stderr
    listing = _run(LINEWISE, "list", "--json", env={**os.environ, "PYTHONPATH": str(target)})
    acme = next(
        p for p in json.loads(listing.stdout)["parsers"] if p["adapterType"] == "acme_agent_local"
    )
    assert acme["distribution"] == "linewise-acme-agent"
    assert acme["status"] == "available"
    assert acme["contract"] == ">=1.8,<2"
    # Light: importing the package and asking its sniff, as detection does, imports no parser.
    light = _run(
        sys.executable,
        "-c",
        "import sys, linewise_acme_agent as p; p.agent.acme_agent_local.sniff; "
        "print(sorted(m for m in sys.modules if m.startswith(p.__name__)))",
        env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert light.stdout.split() == ["['linewise_acme_agent',", "'linewise_acme_agent.sniff']"]

    # Its own sample is auto-detected as its adapter type, among every installed plugin.
    sample = root / "src" / "linewise_acme_agent" / "samples" / "sample.jsonl"
    render = _run(
        LINEWISE,
        "-v",
        "render",
        str(sample),
        "-f",
        "jsonl",
        env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert render.returncode == 0, render.stderr
    assert "acme_agent_local" in render.stderr, render.stderr
    kinds = {json.loads(line)["kind"] for line in render.stdout.splitlines()}
    assert {"init", "tool_call", "tool_result", "result"} <= kinds


def _named_files(readme: str) -> set[str]:
    """Every backquoted word of a README that looks like a path (has a / or a file suffix)."""
    words = set(re.findall(r"`([^`\s]+)`", readme))
    words |= set(re.findall(r"(?:^|\s)((?:src|tests)/\S+)", readme))
    return {w for w in words if "/" in w or re.search(r"\.(py|jsonl|toml|md|log)$", w)}


def test_the_readme_names_only_files_that_exist(tmp_path: Path) -> None:
    root = scaffold("readme-check", tmp_path)[0].parent
    named = _named_files((root / "README.md").read_text(encoding="utf-8"))
    assert "src/linewise_readme_check/samples/sample.jsonl" in named
    missing = sorted(name for name in named if not (root / name).exists())
    assert missing == []


@pytest.mark.parametrize(
    "label", ['Acme "Turbo" CLI', "C:\\tools\\acme", 'ends with a quote"', "tab\\t and \\n"]
)
def test_a_label_with_quotes_or_backslashes_makes_a_readable_project(
    tmp_path: Path, label: str
) -> None:
    root = scaffold("quoted", tmp_path, label=label)[0].parent
    with (root / "pyproject.toml").open("rb") as handle:
        assert tomllib.load(handle)["project"]["description"] == f"{label} parser for linewise"
    package = root / "src" / "linewise_quoted"
    for module in ("__init__.py", "parser.py", "sniff.py"):
        tree = ast.parse((package / module).read_text(encoding="utf-8"), module)
        assert label in str(ast.get_docstring(tree)).replace("\\\\", "\\"), module
    declared = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    (value,) = (
        node.value
        for node in declared.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "label"
    )
    assert ast.literal_eval(value) == label
    compile((root / "tests" / "test_parser.py").read_text(encoding="utf-8"), "t.py", "exec")
    check = _run(LINEWISE, "check", str(root), "--json", "--examples", "0")
    assert check.returncode == 0, check.stdout + check.stderr
    assert json.loads(check.stdout)["counts"]["fail"] == 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("contracts", "linewise-contracts is one of linewise's own distributions"),
        ("claude", "linewise-claude is one of linewise's own distributions"),
    ],
)
def test_a_name_that_would_shadow_linewise_itself_is_refused(
    tmp_path: Path, name: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        scaffold(name, tmp_path)
    done = _run(LINEWISE, "new", name, "--dir", str(tmp_path))
    assert done.returncode == 2
    assert message in done.stderr and "choose another name" in done.stderr
    assert not any(tmp_path.iterdir())


def test_a_name_whose_package_is_already_importable_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "linewise_taken.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="a module named linewise_taken is already installed"):
        scaffold("taken", tmp_path / "out")


def test_a_label_with_a_newline_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="control character"):
        scaffold("lines", tmp_path, label="two\nlines")


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("Bad Name", {}, "is not a valid name"),
        ("fine", {"adapter_type": "Not-Snake"}, "is not snake_case"),
    ],
)
def test_bad_names_are_refused(
    tmp_path: Path, name: str, options: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        scaffold(name, tmp_path, **options)


def test_an_existing_folder_is_not_overwritten(tmp_path: Path) -> None:
    scaffold("twice", tmp_path)
    with pytest.raises(FileExistsError):
        scaffold("twice", tmp_path)
    done = _run(LINEWISE, "new", "twice", "--dir", str(tmp_path))
    assert done.returncode == 1
    assert "already exists" in done.stderr
