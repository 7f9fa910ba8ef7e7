"""JavaScript parsers in the registry: transcripts, per-line fallback, diagnostics, listing."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from linewise import build_transcript
from linewise.cli import main
from linewise.plugins.registry import Registry
from linewise.settings.environment import Settings

from .conftest import MakePackage


@pytest.fixture
def hostile_registered(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    monkeypatch: pytest.MonkeyPatch,
) -> Path:
    monkeypatch.setenv("LINEWISE_LINE_TIMEOUT", "0.3")
    monkeypatch.setenv("LINEWISE_JS_HEAP", "32")
    folder = make_package(parser_source("hostile.js"))
    assert main(["js", "add", str(folder), "--as", "hostile_local"]) == 0
    return folder


def _chunk(*lines: str) -> list[dict[str, str]]:
    return [{"ts": "2026-01-01T00:00:00Z", "stream": "stdout", "chunk": "\n".join(lines) + "\n"}]


def test_hostile_lines_fall_back_one_by_one_and_nothing_is_lost(
    hostile_registered: Path, registry: Registry
) -> None:
    lines = ["a", "throw", "b", "loop", "c", "grow", "d", "function", "e", "object", "f"]
    lines += ["invalid", "g"]
    transcript = build_transcript(_chunk(*lines), "hostile_local", registry=registry)
    texts = [entry.get("text") for entry in transcript.entries]
    # The module's own state goes on across failures: each good line counts every call.
    assert texts == [
        "a #1",
        "throw",
        "b #3",
        "loop",
        "c #5",
        "grow",
        "d #7",
        "function",
        "e #9",
        "object",
        "f #11",
        "invalid",
        "g #13",
    ]
    diagnostics = transcript.diagnostics
    assert diagnostics.lines == len(lines)
    assert diagnostics.fallback_lines == 6
    reasons = " | ".join(error.message for error in diagnostics.first_errors)
    assert "threw Error: boom" in reasons and "time limit of 0.3 s" in reasons


def test_each_transcript_starts_from_fresh_module_state(
    hostile_registered: Path, registry: Registry
) -> None:
    for _ in range(2):
        transcript = build_transcript(_chunk("x", "y"), "hostile_local", registry=registry)
        assert [entry["text"] for entry in transcript.entries] == ["x #1", "y #2"]


def test_list_shows_kind_and_source(
    hostile_registered: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["list", "--json"]) == 0
    infos = {info["adapterType"]: info for info in json.loads(capsys.readouterr().out)["parsers"]}
    assert infos["hostile_local"]["kind"] == "javascript"
    assert infos["hostile_local"]["source"] == str(hostile_registered)
    assert infos["hostile_local"]["distribution"] == "@example/toy-adapter"
    assert all(info["kind"] == "python" for name, info in infos.items() if name != "hostile_local")
    assert main(["list"]) == 0
    table = capsys.readouterr().out
    assert "hostile_local" in table and "javascript" in table
    assert f"source: {hostile_registered}" in table


def test_render_exits_0_over_hostile_lines(
    hostile_registered: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.log"
    log.write_text("one\nloop\ntwo\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["render", "-a", "hostile_local", "-f", "jsonl", str(log)]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [entry["text"] for entry in out] == ["one #1", "loop", "two #3"]


def test_a_javascript_parser_is_never_auto_detected(
    make_package: MakePackage, parser_source: Callable[[str], str], registry: Registry
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    assert main(["js", "add", str(folder), "--as", "toy_local"]) == 0
    transcript = build_transcript(_chunk("[toy] hello"), "auto", registry=registry)
    assert transcript.adapter_type != "toy_local"
    assert registry.load("toy_local").sniff is None


def test_a_registration_wins_over_an_installed_plugin_of_the_same_type(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    registry: Registry,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    assert main(["js", "add", str(folder), "--as", "hermes_local"]) == 0
    assert "also claimed by linewise-hermes" in capsys.readouterr().err
    info = registry.info("hermes_local")
    assert info.kind == "javascript"
    transcript = build_transcript(_chunk("[toy] hi"), "hermes_local", registry=registry)
    assert transcript.entries[0]["kind"] == "system"


def test_without_registrations_the_javascript_support_is_not_imported() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from linewise.plugins.registry import Registry; Registry().parsers(); "
        "print(any(name.startswith('linewise.plugins.javascript') for name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_disable_by_package_name_turns_it_off(
    make_package: MakePackage, parser_source: Callable[[str], str]
) -> None:
    folder = make_package(parser_source("esm_static.js"))
    assert main(["js", "add", str(folder), "--as", "toy_local"]) == 0
    registry = Registry(disable=["@example/toy-adapter"], only=None, strict=False)
    assert registry.info("toy_local").status == "disabled"
    assert registry.load("toy_local").is_fallback


def test_isolate_all_leaves_javascript_parsers_in_their_engine(
    hostile_registered: Path,
) -> None:
    registry = Registry(disable=(), only=None, strict=False, isolate="all")
    loaded = registry.load("hostile_local")
    assert not loaded.is_fallback
    assert not loaded.isolated  # already contained: no worker process is started for it
    transcript = build_transcript(_chunk("a", "loop", "b"), "hostile_local", registry=registry)
    assert [entry.get("text") for entry in transcript.entries] == ["a #1", "loop", "b #3"]


def test_the_engine_runs_under_the_registrys_settings_not_the_environment(
    make_package: MakePackage,
    parser_source: Callable[[str], str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = make_package(parser_source("hostile.js"))
    assert main(["js", "add", str(folder), "--as", "hostile_local"]) == 0
    monkeypatch.setenv("LINEWISE_LINE_TIMEOUT", "0.2")
    monkeypatch.setenv("LINEWISE_JS_HEAP", "64")
    settings = Settings(line_timeout="0.3", js_heap="32")
    registry = Registry(disable=(), only=None, strict=False, settings=settings)
    transcript = build_transcript(_chunk("a", "loop", "b"), "hostile_local", registry=registry)
    assert [entry.get("text") for entry in transcript.entries] == ["a #1", "loop", "b #3"]
    reasons = " | ".join(error.message for error in transcript.diagnostics.first_errors)
    assert "time limit of 0.3 s" in reasons
    assert "0.2 s" not in reasons
