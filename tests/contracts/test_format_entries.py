"""Contract 1.7's ``Format(format_entries=...)``: the field, and the compliance kit's check of it.

``format_entries(entries)`` takes the validated entries one stdout line gave and
returns the compact lines the plugin wants shown for them. It is a field of a
declared ``Format`` (no 1.x loose export of the name), checked by ``linewise
check`` as ``format_stdout_line`` is: twice on each sample line's entries, each
call given its own copies, and under fuzzing.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.agent import FORMAT_CALLABLES, Agent, Format
from linewise_contracts.compliance import Report, run_checks
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.protocols import FORMAT_ENTRIES, CompactLine


def parse(line: str, ts: str) -> list[TranscriptEntry]:
    return [{"kind": "assistant", "ts": ts, "text": line}]


def shown(entries: Any) -> list[CompactLine]:
    return [("assistant", entry["text"]) for entry in entries]


def test_format_entries_is_an_optional_callable_field_of_a_format() -> None:
    assert FORMAT_ENTRIES == "format_entries"
    assert FORMAT_ENTRIES in FORMAT_CALLABLES
    fmt = Format("demo_local", parse_stdout_line=parse, format_entries=shown)
    plain = Format("demo_plain", parse_stdout_line=parse)
    Agent("demo", label="Demo", formats=[fmt, plain])
    assert fmt.format_entries is shown
    assert plain.format_entries is None
    given: list[TranscriptEntry] = [{"kind": "assistant", "ts": "t", "text": "hi"}]
    assert fmt.format_entries(given) == [("assistant", "hi")]


def test_a_format_entries_that_is_no_callable_is_refused_naming_the_field() -> None:
    with pytest.raises(TypeError, match=r"Format\('demo_local'\): format_entries must be"):
        Format("demo_local", parse_stdout_line=parse, format_entries=42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="format_entries reference 'nothing' is not"):
        Format("demo_local", parse_stdout_line=parse, format_entries="nothing")


def test_a_format_entries_reference_is_imported_when_the_format_resolves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "entries_fmt_mod.py").write_text(
        "def format_entries(entries):\n    return [('plain', str(len(entries)))]\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    fmt = Format(
        "demo_local", parse_stdout_line=parse, format_entries="entries_fmt_mod:format_entries"
    )
    Agent("demo", label="Demo", formats=[fmt])
    assert fmt.references() == {"format_entries": "entries_fmt_mod:format_entries"}
    fmt.resolve()
    assert fmt.references() == {}
    assert fmt.format_entries is not None and fmt.format_entries([]) == [("plain", "0")]


# -- the compliance kit -------------------------------------------------------------------

DECLARED = '''
"""A tiny parser for `NOTE:` lines, declared (contract 1.7)."""

from linewise_contracts.agent import Agent, Format


def parse_stdout_line(line, ts):
    if line.startswith("NOTE:"):
        return [{"kind": "system", "ts": ts, "text": line[5:].strip()}]
    return [{"kind": "stdout", "ts": ts, "text": line}]


{formatter}

agent = Agent(
    "notes",
    label="Notes",
    formats=[Format("notes_local", parse_stdout_line=parse_stdout_line, {field})],
)
'''

GOOD_FORMATTER = """
def format_entries(entries):
    return [("lifecycle" if e["kind"] == "system" else "plain", e["text"]) for e in entries]
"""


def _project(root: Path, formatter: str, *, field: str = "format_entries=format_entries") -> Path:
    package = root / "src" / "notes_parser"
    package.mkdir(parents=True)
    source = DECLARED.replace("{formatter}", textwrap.dedent(formatter)).replace("{field}", field)
    (package / "__init__.py").write_text(source, encoding="utf-8")
    (package / "samples").mkdir()
    (package / "samples" / "run.log").write_text("NOTE: one\nplain\n", encoding="utf-8")
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [project]
            name = "notes-parser"
            version = "0.1.0"
            dependencies = ["linewise-contracts>=1.7,<2"]

            [project.entry-points."linewise.parsers"]
            notes_local = "notes_parser:agent.notes_local"
            """
        ),
        encoding="utf-8",
    )
    return root


def _by_check(report: Report) -> dict[str, tuple[str, str]]:
    return {
        result.check: (result.status, " ".join([result.message, *result.details]))
        for result in report.results
    }


def test_a_format_entries_that_keeps_the_contract_passes_and_is_fuzzed(tmp_path: Path) -> None:
    report = run_checks(str(_project(tmp_path, GOOD_FORMATTER)), examples=50)
    checks = _by_check(report)
    assert report.ok, checks
    assert checks["format_entries"] == ("pass", "2 calls, every result valid")
    assert checks["format_stdout_line"] == ("skip", "not exported")
    assert checks["parse.never_throws"][0] == "pass"


def test_each_call_gets_its_own_copies_of_the_entries(tmp_path: Path) -> None:
    # A formatter that changes what it was given: the second call still sees the entries.
    changing = """
    def format_entries(entries):
        text = entries[0]["text"]
        entries[0]["text"] = "changed"
        entries.clear()
        return [("plain", text)]
    """
    checks = _by_check(run_checks(str(_project(tmp_path, changing)), examples=0))
    assert checks["format_entries"][0] == "pass", checks["format_entries"]


@pytest.mark.parametrize(
    ("formatter", "reason"),
    [
        ("def format_entries(entries):\n    raise SystemExit(3)", "raised SystemExit: 3"),
        (
            "def format_entries(entries):\n    return [('shout', e['text']) for e in entries]",
            "unknown role 'shout'",
        ),
        (
            "def format_entries(entries):\n    return [['plain', e['text']] for e in entries]",
            "not a (role, text) tuple",
        ),
        ("def format_entries(entries):\n    return ('plain', 'x')", "returned tuple, not a list"),
        (
            "import itertools\n_n = itertools.count()\n"
            "def format_entries(entries):\n    return [('plain', str(next(_n)))]",
            "not deterministic",
        ),
    ],
)
def test_a_format_entries_that_breaks_the_contract_fails_its_check(
    tmp_path: Path, formatter: str, reason: str
) -> None:
    status, text = _by_check(run_checks(str(_project(tmp_path, formatter)), examples=0))[
        "format_entries"
    ]
    assert status == "fail"
    assert reason in text
    assert "format_entries(the entries of line 1)" in text


def test_fuzzing_finds_a_format_entries_that_raises_on_hostile_entries(tmp_path: Path) -> None:
    fragile = """
    def format_entries(entries):
        return [("plain", e["text"].encode("ascii").decode()) for e in entries]
    """
    report = run_checks(str(_project(tmp_path, fragile)), examples=300)
    status, text = _by_check(report)["parse.never_throws"]
    assert status == "fail", text
    assert "format_entries" in text and "UnicodeEncodeError" in text


def test_a_loose_module_attribute_of_the_name_is_not_the_field(tmp_path: Path) -> None:
    # The format does not give it: a function of that name beside it is not read.
    checks = _by_check(
        run_checks(str(_project(tmp_path, GOOD_FORMATTER, field="label='Notes'")), examples=0)
    )
    assert checks["format_entries"] == ("skip", "not exported")
