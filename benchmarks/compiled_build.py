"""Build linewise's compiled hot path into a folder that shadows the workspace's sources.

Run with `python3 -m uv run --locked python benchmarks/compiled_build.py OUT`. The
distributions whose hot modules are compiled with mypyc (see each one's
hatch_build.py) are built as wheels with this environment's pip, without build
isolation (hatchling, mypy and setuptools come from the workspace's dev group,
so no download is needed), and their packages are unpacked into OUT, compiled
to bytecode as an installer would. `linewise` run with ``PYTHONPATH=OUT`` uses
the compiled modules; distribution metadata (entry points, versions) stays the
workspace's, so discovery and the contract gate are unchanged.

The compiled-path test (tests/host/test_compiled_path.py) and
benchmarks/reference_bench.py use :func:`build_compiled`.
"""

from __future__ import annotations

import argparse
import compileall
import os
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Distribution folder -> what it compiles (declared in its pyproject.toml).
COMPILED = ("contracts", "host", "plugins/claude", "plugins/codex")


class NotCompiled(RuntimeError):
    """A wheel came out pure Python: mypyc or a C compiler is not available here."""


def _wheel(folder: str, out: Path, environ: dict[str, str]) -> tuple[Path, str]:
    target = out / folder.replace("/", "-")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--verbose",
            "--wheel-dir",
            str(target),
            str(ROOT / folder),
        ],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
    )
    wheels = sorted(target.glob("*.whl"))
    if done.returncode != 0 or not wheels:
        raise NotCompiled(f"building {folder} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return wheels[0], done.stdout + done.stderr


def build_wheels(out: Path, environ: dict[str, str] | None = None) -> dict[str, tuple[Path, str]]:
    """Wheels of the compiled distributions in ``out``: {folder: (wheel, build log)}."""
    env = dict(os.environ if environ is None else environ)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        built = pool.map(lambda folder: _wheel(folder, out, env), COMPILED)
        return dict(zip(COMPILED, built, strict=True))


def build_compiled(out: Path) -> list[str]:
    """Unpack compiled wheels into ``out``; returns the extension files in it.

    Raises :class:`NotCompiled` when any distribution came out pure Python.
    """
    with tempfile.TemporaryDirectory(prefix="linewise-wheels-") as folder:
        wheels = build_wheels(Path(folder))
        for source, (wheel, log) in wheels.items():
            if wheel.name.endswith("-none-any.whl"):
                raise NotCompiled(f"{source} built a pure-Python wheel:\n{log[-2000:]}")
            with zipfile.ZipFile(wheel) as archive:
                members = [name for name in archive.namelist() if ".dist-info/" not in name]
                archive.extractall(out, members)
    compileall.compile_dir(out, quiet=1)
    return sorted(str(path.relative_to(out)) for path in out.rglob("*.so"))


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("out", type=Path, help="folder to put the compiled packages in")
    args = options.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        extensions = build_compiled(args.out)
    except NotCompiled as error:
        raise SystemExit(f"not compiled: {error}") from None
    print(f"{len(extensions)} extension files in {args.out}; run with PYTHONPATH={args.out}")


if __name__ == "__main__":
    main()
