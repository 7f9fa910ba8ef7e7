"""The host's top level names its stages: at most ten modules and packages under linewise."""

from __future__ import annotations

from pathlib import Path

import linewise

HOST = Path(linewise.__file__).resolve().parent


def test_the_top_level_holds_the_public_modules_and_the_stages_only() -> None:
    # What `linewise.X` can name: modules and packages (py.typed, PEP 561's marker, and
    # the package's own __init__ are not entries of it).
    entries = sorted(
        path.stem if path.suffix == ".py" else path.name
        for path in HOST.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and (path / "__init__.py").exists())
    )
    assert entries == [
        "cli",
        "export",
        "hookspecs",
        "plugins",
        "render",
        "run",
        "sessions",
        "settings",
        "stream",
        "transcript",
    ]
