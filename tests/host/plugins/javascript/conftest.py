"""Fixtures for the JavaScript parser tests: a private data folder and package builders."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from linewise.plugins.registry import Registry, reset_registry

pytest.importorskip("_quickjs", reason="the JavaScript engine (linewise[js]) is not installed")

MakePackage = Callable[..., Path]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Registrations go to a folder of this test's own."""
    folder = tmp_path / "data"
    monkeypatch.setenv("LINEWISE_DATA_DIR", str(folder))
    monkeypatch.delenv("LINEWISE_LINE_TIMEOUT", raising=False)
    monkeypatch.delenv("LINEWISE_JS_HEAP", raising=False)
    reset_registry()
    yield folder
    reset_registry()


@pytest.fixture
def make_package(tmp_path: Path) -> MakePackage:
    """Write an adapter package folder with one ui-parser module; returns its folder."""
    counter = iter(range(1000))

    def make(
        module: str,
        *,
        filename: str = "ui-parser.js",
        exports: Any = None,
        paperclip: Any = "1.0.0",
        name: str = "@example/toy-adapter",
        main: str | None = None,
        extra: dict[str, str] | None = None,
    ) -> Path:
        folder = tmp_path / f"package-{next(counter)}"
        (folder / "dist").mkdir(parents=True)
        (folder / "dist" / filename).write_text(module, encoding="utf-8")
        manifest: dict[str, Any] = {"name": name, "version": "1.2.3", "description": "A toy"}
        if paperclip is not None:
            manifest["paperclip"] = {"adapterUiParser": paperclip}
        manifest["exports"] = (
            exports if exports is not None else {"./ui-parser": f"./dist/{filename}"}
        )
        if main is not None:
            (folder / "dist" / "index.js").write_text(main, encoding="utf-8")
            manifest["exports"]["."] = "./dist/index.js"
        for relative, text in (extra or {}).items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_text(text, encoding="utf-8")
        (folder / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
        return folder

    return make


@pytest.fixture
def registry() -> Registry:
    """A registry that scans the environment (and so this test's registrations) anew."""
    return Registry(disable=(), only=None, strict=False)


PARSERS = Path(__file__).parent / "parsers"


@pytest.fixture
def parser_source() -> Callable[[str], str]:
    """The text of one of the JavaScript parsers written for these tests."""

    def read(name: str) -> str:
        return (PARSERS / name).read_text(encoding="utf-8")

    return read
