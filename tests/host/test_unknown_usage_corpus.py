"""Over every real log and session in the corpus: no view shows 0 for a count the CLI did not report.

For each file, the run's tokens in the usage vocabulary (its plugin's
``summarize_run``) are compared with what each view makes of them: the
``summarize`` table row and its JSON, the text footer, the HTML header's JSON
and the Parquet export's columns. A count the CLI did not report is
"unknown" / ``null`` / "not reported" in every one of them, never 0; a
reported count is the same number in all of them; and no result line
prints a 0 (an entry's 0 may mean "not reported").
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from linewise import Registry, build_transcript
from linewise.cli.commands.summarizing import _row
from linewise.export._work import export_file
from linewise.render.outcome import result_usage, summary_tokens, summary_usage
from linewise.transcript.run_report import summarize_log
from linewise_contracts.usage import TOKEN_FIELDS
from support import corpus_path

# Files that are documentation or metadata, not a CLI's output.
_SKIPPED = {".md", ".txt.md", ".db"}
_TABLE_COLUMNS = ("uncached_input", "cache_read", "cache_write", "output")
_PARQUET = {
    "uncached_input": "uncached_input_tokens",
    "cache_read": "cached_tokens",
    "cache_write": "cache_write_tokens",
    "output": "output_tokens",
    "reasoning": "reasoning_tokens",
}
_ZERO_COUNT = re.compile(r"\b(?:input|cached|output) 0\b")


def _corpus_files() -> list[Path]:
    files: list[Path] = []
    for folder in ("real-logs", "real-sessions"):
        root = corpus_path(folder)
        for path in sorted(root.rglob("*")):
            if (
                path.is_file()
                and path.suffix not in _SKIPPED
                and path.name != "PROVENANCE.md"
                and not path.name.endswith(".meta.json")
                and "composite-not-raw" not in path.parts
            ):
                files.append(path)
    return files


def _ids(paths: list[Path]) -> list[str]:
    return [f"{path.parent.name}/{path.name[:60]}" for path in paths]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry()


def test_the_corpus_is_there() -> None:
    assert len(_corpus_files()) > 40


@pytest.mark.parametrize("path", _corpus_files(), ids=_ids(_corpus_files()))
def test_no_view_shows_zero_for_a_count_the_cli_did_not_report(
    path: Path, registry: Registry
) -> None:
    from linewise.cli.inputs import session_report

    # What `linewise summarize PATH` and `export` read: a session file through its plugin.
    report = session_report(str(path), "auto", registry) or summarize_log(path, registry=registry)
    summary = report.summary
    tokens = summary_tokens(summary)
    if tokens is None:
        pytest.skip(f"{report.adapter_type}: no usage vocabulary (a plugin before contract 1.3)")
    counts = {name: getattr(tokens, name) for name, _ in TOKEN_FIELDS}

    # summarize --json: the summary's own document
    document = json.loads(json.dumps(report.to_json()))
    assert document["summary"]["tokenUsage"] == {key: counts[name] for name, key in TOKEN_FIELDS}

    # summarize's table row: the four token columns after ERRORS
    row = _row(report)
    cells = row[7:11]
    for name, cell in zip(_TABLE_COLUMNS, cells, strict=True):
        expected = "unknown" if counts[name] is None else f"{counts[name]:,}"
        assert cell == expected, (name, cell)

    # the text footer: every reported count named, every unreported one said to be so
    footer = summary_usage(summary)
    if tokens.is_empty:
        assert "tokens not reported" in footer
    for label, name in (("cache write", "cache_write"), ("cache read", "cache_read")):
        if counts[name] is None and not tokens.is_empty:
            assert f"{label} " not in footer.split("not reported:")[0], footer

    # runs.parquet's row: null where unknown, the same number where reported
    from linewise.export._sources import UnreadableInput

    try:
        run = export_file(str(path), registry=registry).run
    except UnreadableInput:
        # A JSON document no plugin reads (a store's meta file) is refused, not raw rows.
        assert report.adapter_type == "process", report.adapter_type
        return
    for name, column in _PARQUET.items():
        assert run[column] == counts[name], (column, run[column], counts[name])
    assert run["input_tokens"] == tokens.total_input


@pytest.mark.parametrize("path", _corpus_files(), ids=_ids(_corpus_files()))
def test_no_result_line_prints_a_zero_count(path: Path, registry: Registry) -> None:
    report = summarize_log(path, registry=registry)
    chunk = path.read_bytes().decode("utf-8", "replace")
    if report.adapter_type.endswith("_session"):
        pytest.skip("session files are read through their store reader, not as stdout")
    transcript = build_transcript(
        [{"ts": "2026-01-01T00:00:00Z", "stream": "stdout", "chunk": chunk}],
        report.adapter_type,
        registry=registry,
    )
    out = io.StringIO()
    for entry in transcript.entries:
        if entry["kind"] == "result":
            out.write(result_usage(entry) + "\n")
    assert not _ZERO_COUNT.search(out.getvalue())
