"""``linewise new``: scaffold a parser plugin project that passes ``linewise check`` as created."""

from __future__ import annotations

import argparse
import re
import sys
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import Any

from linewise_contracts._version import CONTRACT_VERSION
from linewise_contracts.protocols import adapter_type_problem

from linewise._registry import Registry
from linewise.cli.common import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, fail

__all__ = ["register", "scaffold"]

_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


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

    Raises ValueError for a bad name or adapter type, FileExistsError when the
    project folder already exists.
    """
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a valid name: use lowercase letters, digits, - or _")
    slug = name.replace("-", "_")
    adapter_type = adapter_type or f"{slug}_local"
    problem = adapter_type_problem(adapter_type)
    if problem:
        raise ValueError(problem)
    major = int(CONTRACT_VERSION.split(".", 1)[0])
    values = {
        "distribution": f"linewise-{name.replace('_', '-')}",
        "package": f"linewise_{slug}",
        "adapter_type": adapter_type,
        "label": label or f"{name.replace('-', ' ').replace('_', ' ').title()} (local)",
        "contract_major": str(major),
        "next_major": str(major + 1),
    }
    root = parent / values["distribution"]
    if root.exists():
        raise FileExistsError(f"{root} already exists")
    package = Path("src") / values["package"]
    layout = {
        "pyproject.toml.tmpl": Path("pyproject.toml"),
        "README.md.tmpl": Path("README.md"),
        "src/__init__.py.tmpl": package / "__init__.py",
        "src/samples.jsonl.tmpl": package / "samples" / "sample.jsonl",
        "tests/test_parser.py.tmpl": Path("tests") / "test_parser.py",
    }
    templates = files("linewise") / "templates" / "plugin"
    written: list[Path] = []
    for source, target in layout.items():
        text = Template(templates.joinpath(source).read_text(encoding="utf-8")).substitute(values)
        path = root / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    marker = root / package / "py.typed"
    marker.touch()
    written.append(marker)
    return written


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
