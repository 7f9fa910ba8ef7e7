"""``linewise new``: scaffold a parser plugin project that passes ``linewise check`` as created."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from importlib.metadata import PackageNotFoundError, distribution
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path
from string import Template
from typing import Any

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.protocols import adapter_type_problem

from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail
from linewise.plugins.guard import guarded
from linewise.plugins.registry import Registry
from linewise.plugins.suggest import FIRST_PARTY

__all__ = ["register", "scaffold"]

_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")

#: linewise's own distributions: a new plugin must never take one of their names.
OWN_DISTRIBUTIONS = frozenset({"linewise", "linewise-contracts", *FIRST_PARTY.values()})


def _taken(distribution_name: str, package: str) -> str | None:
    """Why a new project may not be called ``distribution_name`` with ``package``, or None."""
    if distribution_name in OWN_DISTRIBUTIONS:
        return f"{distribution_name} is one of linewise's own distributions"
    spec, error = guarded(find_spec, package)
    if spec is not None or error is not None:
        return f"a module named {package} is already installed: the new package would shadow it"
    try:
        distribution(distribution_name)
    except PackageNotFoundError:
        return None
    return f"a distribution named {distribution_name} is already installed"


def _label_problem(label: str) -> str | None:
    if not label.strip():
        return "the label is empty"
    if any(ord(char) < 32 or ord(char) == 127 for char in label):
        return "the label contains a control character (a newline, say)"
    try:
        label.encode("utf-8")
    except UnicodeEncodeError:  # bytes of the command line that were not UTF-8
        return "the label is not valid UTF-8 text"
    return None


def _docstring_text(text: str) -> str:
    # Inside a triple-quoted docstring: a backslash or quote must not end or escape it.
    return text.replace("\\", "\\\\").replace('"', '\\"')


def register(commands: Any) -> None:
    """Add the ``new`` subcommand."""
    new = commands.add_parser("new", help="scaffold a parser plugin project")
    new.add_argument(
        "name",
        metavar="NAME",
        help="the agent CLI's name, e.g. acme: distribution linewise-acme, package linewise_acme",
    )
    new.add_argument(
        "--adapter-type", metavar="TYPE", help="the adapter type (default: NAME_local)"
    )
    new.add_argument("--label", help='the display name (default: "Name (local)")')
    new.add_argument(
        "--dir", default=".", metavar="PATH", help="where to create the project folder"
    )
    new.set_defaults(handler=run)


def scaffold(
    name: str, parent: Path, *, adapter_type: str | None = None, label: str | None = None
) -> list[Path]:
    """Create the project ``linewise-NAME`` under ``parent``; returns the files written.

    Raises ValueError for a bad name, label or adapter type, or a name whose
    distribution or package is linewise's own or already installed (the new
    package would shadow it); FileExistsError when the project folder exists.
    """
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a valid name: use lowercase letters, digits, - or _")
    slug = name.replace("-", "_")
    adapter_type = adapter_type or f"{slug}_local"
    problem = adapter_type_problem(adapter_type)
    if problem:
        raise ValueError(problem)
    distribution_name = f"linewise-{name.replace('_', '-')}"
    package = f"linewise_{slug}"
    taken = _taken(distribution_name, package)
    if taken:
        raise ValueError(f"cannot call a new plugin {name!r}: {taken}; choose another name")
    label = (
        label
        if label is not None
        else f"{name.replace('-', ' ').replace('_', ' ').title()} (local)"
    )
    problem = _label_problem(label)
    if problem:
        raise ValueError(problem)
    major = int(CONTRACT_VERSION.split(".")[0])
    cli = name.replace("_", "-")
    # The label goes into Python and TOML strings, docstrings and Markdown: each its own way.
    values = {
        "distribution": distribution_name,
        "package": package,
        "adapter_type": adapter_type,
        "label": label,
        "label_py": json.dumps(label, ensure_ascii=False),
        "label_doc": _docstring_text(label),
        "description_toml": json.dumps(f"{label} parser for linewise", ensure_ascii=False),
        # Its light package (linewise_contracts.lazy) came in contract 1.8: the oldest
        # it needs.
        "contract_floor": f"{major}.8" if major == 1 else f"{major}.0",
        "agent_name_py": json.dumps(cli),
        "agent_label_py": json.dumps(cli.replace("-", " ").title(), ensure_ascii=False),
        "contract_major": str(major),
        "next_major": str(major + 1),
    }
    root = parent / distribution_name
    if root.exists():
        raise FileExistsError(f"{root} already exists")
    source = Path("src") / package
    layout = {
        "pyproject.toml.tmpl": Path("pyproject.toml"),
        "README.md.tmpl": Path("README.md"),
        "src/__init__.py.tmpl": source / "__init__.py",
        "src/parser.py.tmpl": source / "parser.py",
        "src/sniff.py.tmpl": source / "sniff.py",
        "src/samples.jsonl.tmpl": source / "samples" / "sample.jsonl",
        "tests/test_parser.py.tmpl": Path("tests") / "test_parser.py",
    }
    templates = files("linewise.cli") / "templates" / "plugin"
    # Written in a hidden folder beside it and renamed when whole: a failure part way
    # (a full disk, an unwritable name) leaves no half-made project behind.
    parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{distribution_name}.", dir=parent))
    try:
        for template, target in layout.items():
            text = Template(templates.joinpath(template).read_text(encoding="utf-8"))
            path = building / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text.substitute(values), encoding="utf-8")
        (building / source / "py.typed").touch()
        building.chmod(0o777 & ~_umask())
        building.rename(root)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return [root / target for target in layout.values()] + [root / source / "py.typed"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def run(args: argparse.Namespace, registry: Registry) -> int:
    """Create the project and say what to do next."""
    try:
        written = scaffold(
            args.name, Path(args.dir), adapter_type=args.adapter_type, label=args.label
        )
    except ValueError as error:
        fail(str(error), EXIT_USAGE)
    except OSError as error:
        fail(str(error), EXIT_FAILURE)
    root = written[0].parent
    out = sys.stdout
    out.write(f"created {root}\n")
    for path in written:
        out.write(f"  {path.relative_to(root)}\n")
    out.write(
        "\nnext:\n"
        f"  cd {root}\n"
        "  pip install -e '.[test]'\n"
        "  linewise check .        # the contract, checked\n"
        "  pytest                  # your tests and the compliance checks\n"
        "  linewise list           # your adapter type, found through its entry point\n"
    )
    return EXIT_OK
