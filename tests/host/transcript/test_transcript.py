"""build_transcript against the reference transcript builder's own test cases.

The reference turns a parser exception into an error ``result`` entry; the
contract document (and linewise) sends that line through the generic parser
and records the error in the diagnostics instead. Those cases assert our
documented behaviour; the others must match the reference exactly.
"""

from __future__ import annotations

from typing import Any

import pytest
from linewise import Registry, build_transcript
from support import FakeSite, corpus_json

ECHO = """
def parse_stdout_line(line, ts):
    return [{"kind": "stdout", "ts": ts, "text": line}]
"""

PENDING = """
class Parser:
    def __init__(self):
        self.pending = None

    def parse_line(self, line, ts):
        if line.startswith("begin:"):
            self.pending = line[len("begin:"):]
            return []
        if line == "explode":
            raise RuntimeError(f"bad state:{self.pending}")
        if line == "finish" and self.pending:
            return [{"kind": "stdout", "ts": ts, "text": f"completed:{self.pending}"}]
        return [{"kind": "stdout", "ts": ts, "text": f"literal:{line}"}]

    def reset(self):
        self.pending = None

def create_stdout_parser():
    return Parser()
"""

THROWS = """
def parse_stdout_line(line, ts):
    if line == "explode":
        raise RuntimeError("boom")
    return [{"kind": "stdout", "ts": ts, "text": line}]
"""


def _case(fixture: str) -> dict[str, Any]:
    cases = corpus_json("paperclip", "transcript-builder", "expected.json")["transcript_builder"]
    return next(case for case in cases if case["fixture"] == fixture)


@pytest.fixture
def registry(fake_site: FakeSite) -> Registry:
    fake_site.add("echo-parser", entry_points={"echo": "tb_echo"}, modules={"tb_echo": ECHO})
    fake_site.add(
        "pending-parser", entry_points={"pending": "tb_pending"}, modules={"tb_pending": PENDING}
    )
    fake_site.add(
        "throws-parser", entry_points={"throws": "tb_throws"}, modules={"tb_throws": THROWS}
    )
    return Registry(entry_points=fake_site.entry_points())


def test_stdout_and_stderr_chunks_match_the_reference(registry: Registry) -> None:
    case = _case("chunks-04.jsonl")
    assert case["options"] is None
    transcript = build_transcript(case["chunks"], "echo", registry=registry)
    assert transcript.entries == case["output"]


@pytest.mark.parametrize("fixture", ["chunks-06.jsonl", "chunks-07.jsonl"])
def test_each_build_gets_a_fresh_stateful_parser(registry: Registry, fixture: str) -> None:
    case = _case(fixture)
    # Build the other case first: state must not leak from one build into the next.
    other = "chunks-07.jsonl" if fixture == "chunks-06.jsonl" else "chunks-06.jsonl"
    build_transcript(_case(other)["chunks"], "pending", registry=registry)
    assert build_transcript(case["chunks"], "pending", registry=registry).entries == case["output"]


def test_a_throwing_line_falls_back_to_generic_instead_of_an_error_result(
    registry: Registry,
) -> None:
    case = _case("chunks-08.jsonl")
    transcript = build_transcript(case["chunks"], "throws", registry=registry)
    ts = case["chunks"][0]["ts"]
    assert [e["kind"] for e in case["output"]] == ["stdout", "result", "stdout"]  # the reference
    assert transcript.entries == [
        {"kind": "stdout", "ts": ts, "text": "ok"},
        {"kind": "stdout", "ts": ts, "text": "explode"},
        {"kind": "stdout", "ts": ts, "text": "later"},
    ]
    error = transcript.diagnostics.first_errors[0]
    assert (error.line_number, error.message) == (2, "boom")


def test_a_stateful_parser_is_reset_after_it_raises(registry: Registry) -> None:
    case = _case("chunks-09.jsonl")
    transcript = build_transcript(case["chunks"], "pending", registry=registry)
    ts = case["chunks"][0]["ts"]
    # Same as the reference after the error: "finish" no longer sees the pending task.
    assert (
        transcript.entries[-1]
        == case["output"][-1]
        == {"kind": "stdout", "ts": ts, "text": "literal:finish"}
    )
    assert transcript.entries[0] == {"kind": "stdout", "ts": ts, "text": "explode"}
    assert transcript.diagnostics.first_errors[0].message == "bad state:task-a"


def test_a_trailing_unterminated_line_that_throws_is_handled(registry: Registry) -> None:
    case = _case("chunks-10.jsonl")
    transcript = build_transcript(case["chunks"], "throws", registry=registry)
    ts = case["chunks"][0]["ts"]
    assert transcript.entries == [{"kind": "stdout", "ts": ts, "text": "explode"}]
    assert transcript.diagnostics.parser_errors == 1


def test_unknown_streams_are_rejected(registry: Registry) -> None:
    with pytest.raises(ValueError, match="unknown stream"):
        build_transcript([{"ts": "t", "stream": "video", "chunk": "x"}], "echo", registry=registry)


def test_usernames_are_censored_only_when_asked(registry: Registry) -> None:
    case = _case("chunks-05.jsonl")
    assert case["options"] == {"censorUsernameInLogs": True}
    censored = build_transcript(case["chunks"], "echo", registry=registry, censor_usernames=True)
    assert censored.entries == case["output"]
    plain = build_transcript(case["chunks"], "echo", registry=registry)
    assert plain.entries == _case("chunks-04.jsonl")["output"]


def test_censoring_covers_tool_inputs_and_other_home_paths() -> None:
    from linewise.transcript.privacy import censor_usernames

    call = {
        "kind": "tool_call",
        "ts": "t",
        "name": "Read",
        "input": {"file_path": "/home/alice/app/main.py", "paths": ["C:\\Users\\bob\\x"]},
    }
    assert censor_usernames(call)["input"] == {  # type: ignore[typeddict-item]
        "file_path": "/home/a****/app/main.py",
        "paths": ["C:\\Users\\b****\\x"],
    }
    assert call["input"]["file_path"] == "/home/alice/app/main.py"  # not modified
    untouched = {"kind": "stdout", "ts": "t", "text": "no paths; /usr/share/x; src/Users/x"}
    assert censor_usernames(untouched) is untouched  # type: ignore[arg-type]


def test_censoring_reaches_a_tool_input_as_deep_as_the_contract_allows() -> None:
    from linewise.transcript.privacy import censor_usernames

    value: object = "/Users/dotta/secret.txt"
    for depth in range(511):  # MAX_JSON_DEPTH is 512: a valid entry
        value = [value] if depth % 2 else {"k": value}
    call = {"kind": "tool_call", "ts": "t", "name": "Read", "input": value}
    masked = censor_usernames(call)["input"]  # type: ignore[arg-type, typeddict-item]
    for depth in reversed(range(511)):
        masked = masked[0] if depth % 2 else masked["k"]
    assert masked == "/Users/d****/secret.txt"
