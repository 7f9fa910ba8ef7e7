"""Redaction by content (``--redact``): a corpus of fake secrets, in every spelling agents
print them, never reaches any output; what is masked is named and counted."""

from __future__ import annotations

import html
import json
import random
import re
import string
import sys
from pathlib import Path
from typing import Any

import pytest
from linewise import run_agent
from linewise.cli import main
from linewise.render.redaction.detectors import KINDS, find_secrets
from linewise.render.redaction.entries import EntryRedactor
from scaling import assert_linear
from support import TS, corpus_path

_RANDOM = random.Random(28)
ALNUM = string.ascii_letters + string.digits


def _chars(alphabet: str, size: int) -> str:
    # Each fake secret mixes digits and letters, as generated keys do.
    while True:
        text = "".join(_RANDOM.choice(alphabet) for _ in range(size))
        mixed = any(c.isdigit() for c in text) and any(c.isalpha() for c in text)
        if mixed or alphabet.isdigit():
            return text


UPPER = string.ascii_uppercase + string.digits
URLSAFE = ALNUM + "_-"

#: One fake secret of each shape (valid-looking, never real), by the kind it is named.
SECRETS: dict[str, str] = {
    "aws-access-key": "AKIA" + _chars(UPPER, 16),
    "github-token": "ghp_" + _chars(ALNUM, 36),
    "gitlab-token": "glpat-" + _chars(URLSAFE, 20),
    "slack-token": "xoxb-" + _chars(string.digits, 12) + "-" + _chars(ALNUM, 24),
    "anthropic-key": "sk-ant-api03-" + _chars(URLSAFE, 93),
    "openai-key": "sk-proj-" + _chars(URLSAFE, 48),
    "stripe-key": "sk_live_" + _chars(ALNUM, 24),
    "google-api-key": "AIza" + _chars(URLSAFE, 35),
    "huggingface-token": "hf_" + _chars(ALNUM, 34),
    "npm-token": "npm_" + _chars(ALNUM, 36),
    "sendgrid-key": "SG." + _chars(URLSAFE, 22) + "." + _chars(URLSAFE, 43),
    "telegram-bot-token": "1234567890:AA" + _chars(URLSAFE, 33),
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0." + _chars(URLSAFE, 43),
}
PASSWORD = "Hj7" + _chars(ALNUM, 9) + "&q"  # with a character Go's JSON escapes
PEM_BODY = [_chars(ALNUM + "+/", 64) for _ in range(4)]
PEM = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *PEM_BODY, "-----END RSA PRIVATE KEY-----"])


def _escaped(text: str, which: int) -> str:
    """``text`` as a JSON string body with character ``which`` written as ``\\uXXXX``."""
    body = json.dumps(text)[1:-1]
    return body.replace(text[which], f"\\u{ord(text[which]):04x}", 1)


def _go(text: str) -> str:
    """``text`` as Go's encoding/json writes it: <, > and & as \\u003c, \\u003e, \\u0026."""
    body = json.dumps(text)[1:-1]
    return body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value)


def _assistant(text_json: str) -> str:
    """An assistant line whose text is ``text_json`` (already a JSON string body)."""
    return (
        '{"type":"assistant","message":{"id":"m","role":"assistant","content":'
        '[{"type":"text","text":"' + text_json + '"}]}}'
    )


def _tool(number: int, command_json: str, result_json: str) -> list[str]:
    call = (
        f'{{"type":"assistant","message":{{"id":"c{number}","role":"assistant","content":'
        f'[{{"type":"tool_use","id":"t{number}","name":"Bash","input":'
        f'{{"command":"{command_json}"}}}}]}}}}'
    )
    result = (
        '{"type":"user","message":{"role":"user","content":[{"type":"tool_result",'
        f'"tool_use_id":"t{number}","content":"{result_json}"}}]}}}}'
    )
    return [call, result]


def _delta(text: str) -> str:
    return _line(
        {
            "type": "stream_event",
            "event": {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": text},
            },
        }
    )


def secret_log() -> list[str]:
    """A Claude stream-json log printing every secret in every spelling agents use."""
    lines = [
        _line({"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": []})
    ]
    number = 0
    for kind, secret in SECRETS.items():
        middle = len(secret) // 2
        red = f"\\u001b[31m{secret[:middle]}\\u001b[1m{secret[middle:]}\\u001b[0m"
        nested = json.dumps(json.dumps({"key": secret}))[1:-1]  # JSON text inside JSON
        nested_escaped = nested.replace(secret[5], f"\\\\u{ord(secret[5]):04x}", 1)
        lines += [
            _assistant(f"plain {json.dumps(secret)[1:-1]} ({kind})"),
            _assistant(f"escaped {_escaped(secret, 4)} and {_escaped(secret, len(secret) - 1)}"),
            _assistant("all " + "".join(f"\\u{ord(c):04x}" for c in secret)),
            _assistant(f"see https://example.com/cb?access_token={_go(secret)}&x=1"),
            _delta(f"split {secret[:middle]}"),
            _delta(f"{secret[middle:]} across two deltas"),
        ]
        number += 1
        lines += _tool(number, f"echo {_escaped(secret, 6)}", f"{red}\\n{nested_escaped}")
    number += 1
    lines += _tool(
        number,
        _go(f"psql postgres://admin:{PASSWORD}@db.internal/app && echo DB_PASSWORD={PASSWORD}"),
        json.dumps(PEM + "\nDB_PASSWORD=" + PASSWORD)[1:-1],
    )
    lines.append(_assistant(_go(f"The password is in DB_PASSWORD={PASSWORD} (Go JSON)")))
    return lines


def _readable(output: str) -> str:
    """``output`` with every escape a secret could hide behind undone."""
    text = html.unescape(output)
    for _ in range(3):
        text = re.sub(r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
        text = re.sub(r"\\+/", "/", text)
    return re.sub(r"\x1b\[[0-?]*[ -/]*[@-~]", "", text)


def _cores() -> dict[str, str]:
    """The part of each secret that must never be shown (past its well-known prefix)."""
    cores = {kind: secret[-16:] for kind, secret in SECRETS.items()}
    cores["url-password"] = PASSWORD
    cores |= {f"private-key line {n}": body[10:40] for n, body in enumerate(PEM_BODY)}
    return cores


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("secrets") / "secrets.jsonl"
    path.write_text("\n".join(secret_log()) + "\n", encoding="utf-8")
    return path


FORMATS = [
    ["-f", "text"],
    ["-f", "text", "--thinking", "--full"],
    ["-f", "text", "--style", "compact"],
    ["-f", "jsonl"],
    ["-f", "html"],
]


@pytest.mark.parametrize("options", FORMATS, ids=lambda o: "-".join(o).replace("-", ""))
def test_no_secret_of_the_corpus_appears_in_any_format_with_redact(
    log: Path, options: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(["render", str(log), "-a", "claude_local", "--redact", "-o", str(out), *options])
    assert code == 0
    shown = _readable(out.read_text(encoding="utf-8"))
    leaked = {kind: core for kind, core in _cores().items() if core in shown}
    assert leaked == {}
    assert "[redacted: aws-access-key]" in shown
    assert "secrets redacted" in capsys.readouterr().err


def test_without_redact_the_corpus_is_shown_as_it_is(log: Path, tmp_path: Path) -> None:
    # The corpus really holds the secrets: the test above would catch a leak.
    out = tmp_path / "out.txt"
    assert main(["render", str(log), "-a", "claude_local", "-q", "-o", str(out), "--full"]) == 0
    shown = _readable(out.read_text(encoding="utf-8"))
    assert all(core in shown for core in _cores().values())


def test_each_redaction_names_its_kind_and_is_counted_in_the_diagnostics(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    assert (
        main(["render", str(log), "-a", "claude_local", "--redact", "-f", "jsonl", "-o", str(out)])
        == 0
    )
    text = out.read_text(encoding="utf-8")
    for kind in [*SECRETS, "url-password", "private-key", "secret-assignment"]:
        assert f"[redacted: {kind}]" in text, kind
    err = capsys.readouterr().err
    counted = re.search(r"(\d+) secrets redacted \(([^)]*)\)", err)
    assert counted is not None
    by_kind = dict(item.rsplit(" ", 1) for item in counted.group(2).split(", "))
    assert sum(map(int, by_kind.values())) == int(counted.group(1))
    assert int(counted.group(1)) == text.count("[redacted: ")


def test_an_allowed_value_is_never_masked(tmp_path: Path) -> None:
    allowed = SECRETS["github-token"]
    path = tmp_path / "log.jsonl"
    path.write_text(_assistant(f"ci uses {allowed} and {SECRETS['npm-token']}") + "\n")
    out = tmp_path / "out.jsonl"
    args = ["render", str(path), "-a", "claude_local", "-q", "-f", "jsonl", "-o", str(out)]
    assert main([*args, "--redact", "--redact-allow", allowed]) == 0
    text = out.read_text()
    assert allowed in text and SECRETS["npm-token"] not in text


def test_text_that_only_resembles_a_secret_is_left_alone() -> None:
    ordinary = [
        "max_tokens=4096 and input_tokens: 12345",
        "export API_KEY=$ANTHROPIC_API_KEY",
        "token = self.settings.token",
        "password: <your-password-here>",
        "sk-learn-is-a-library-name-not-a-key",
        "https://user@example.com/path?a=b",
        "postgres://user:${DB_PASSWORD}@localhost/db",
        '"apiKeySource":"ANTHROPIC_API_KEY"',
        "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
    ]
    assert [text for text in ordinary if find_secrets(text.encode())] == []


def test_every_detector_kind_is_named_in_kinds() -> None:
    found = {kind for secret in SECRETS.values() for _, _, kind in find_secrets(secret.encode())}
    assert found == set(SECRETS)
    assert set(SECRETS) <= set(KINDS)


# -- streamed fragments and the environment's secrets --------------------------------------


def _entries(texts: list[str], kind: str = "assistant") -> list[dict[str, Any]]:
    return [{"kind": kind, "ts": TS, "text": text, "delta": True} for text in texts]


def test_a_secret_split_across_two_deltas_is_masked_once_they_are_merged() -> None:
    secret = SECRETS["anthropic-key"]
    redactor = EntryRedactor(patterns=True)
    out: list[Any] = []
    for entry in _entries(["key: " + secret[:9], secret[9:] + " ok"]):
        out += redactor.entry(entry)  # type: ignore[arg-type]
    out += redactor.entry({"kind": "result", "ts": TS, "text": "done"})  # type: ignore[typeddict-item]
    texts = [entry["text"] for entry in out]
    assert texts[0] == "key: [redacted: anthropic-key] ok"
    assert out[0]["delta"] is True
    assert texts[1] == "done"


def test_held_fragments_stay_bounded_and_a_secret_at_the_cut_is_still_masked() -> None:
    secret = SECRETS["github-token"]
    redactor = EntryRedactor(patterns=True)
    out: list[Any] = []
    filler = "words " * 20_000  # past the 64 KiB bound: passed on before the stream ends
    for entry in _entries([filler, secret[:10], secret[10:], " end"]):
        out += redactor.entry(entry)  # type: ignore[arg-type]
    assert out, "nothing passed on past the bound"
    out += redactor.flush()
    text = "".join(entry["text"] for entry in out)
    assert secret not in text and text.endswith("[redacted: github-token] end")
    assert text.count("words ") == 20_000


@pytest.mark.parametrize(
    "spelling",
    [
        "sk-\\u006cive-0123456789abcdef",  # one character escaped
        "sk-\\u006Cive-0123456789abcdef",  # upper-case hex
        "\\u0073k-live-0123456789\\u0061bcdef",  # a mix
    ],
)
def test_an_environment_secret_with_escaped_characters_is_masked_in_a_live_run(
    spelling: str, tmp_path: Path
) -> None:
    secret = "sk-live-0123456789abcdef"
    lines = [
        _assistant(f"it is {spelling} here"),
        _delta("split sk-live-01234"),
        _delta("56789abcdef here"),
        _assistant("end"),
    ]
    script = "import sys\nsys.stdout.write(" + repr("\n".join(lines) + "\n") + ")\n"
    entries: list[Any] = []
    transcript, saved = tmp_path / "t.jsonl", tmp_path / "run.log"
    result = run_agent(
        [sys.executable, "-c", script],
        "claude_local",
        env={"API_KEY": secret, "PATH": "/usr/bin:/bin"},
        on_entry=entries.append,
        save_transcript=transcript,
        save_log=saved,
    )
    assert result.exit_code == 0
    shown = json.dumps(entries)
    for output in (shown, transcript.read_text(), saved.read_text()):
        assert "0123456789abcdef" not in _readable(output)
    assert result.diagnostics.redactions.get("environment", 0) >= 2


def test_a_secret_that_go_printed_with_html_safe_escapes_is_masked_in_the_saved_log(
    tmp_path: Path,
) -> None:
    secret = "pa<ss>&word-0123456789"
    mixed = _go(secret).replace("w", "\\u0077")  # Go's escapes and one more
    printed = _assistant(f"value {_go(secret)} and {mixed}")
    script = f"print({printed!r})"
    entries: list[Any] = []
    saved = tmp_path / "run.log"
    run_agent(
        [sys.executable, "-c", script],
        "claude_local",
        env={"DB_PASSWORD": secret, "PATH": "/usr/bin:/bin"},
        on_entry=entries.append,
        save_log=saved,
    )
    assert "0123456789" not in _readable(saved.read_text())
    assert "0123456789" not in _readable(json.dumps(entries))


# -- cost -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "unit",
    [
        "eyJ",
        "sk-",
        "aaaa",
        "token=",
        "a://",
        "http://u:",
        "-----BEGIN PRIVATE KEY-----",
        "AKIA",
        "token ",
        "bearer ",
        "\\u0041",
        "1234567890:AA",
    ],
)
def test_finding_secrets_stays_linear_on_hostile_text(unit: str) -> None:
    assert_linear(find_secrets, lambda size: unit.encode() * size, 2000)


# -- the real corpus ---------------------------------------------------------------------------


def test_false_positives_on_the_real_corpus_stay_below_one_per_thousand_lines() -> None:
    from linewise.plugins.registry import get_registry
    from linewise.stream.pipeline import Pipeline

    folders = [corpus_path("real-logs"), corpus_path("real-sessions")]
    registry = get_registry()
    lines = masked = 0
    for folder in folders:
        for path in sorted(folder.rglob("*.jsonl")):
            redactor = EntryRedactor(patterns=True)
            pipeline = Pipeline("auto", registry=registry, on_entry=redactor.entry)
            data = path.read_bytes()
            lines += data.count(b"\n")
            pipeline.receive("stdout", data, TS)
            pipeline.close(TS)
            redactor.flush()
            masked += redactor.masked
    assert lines > 5000
    # Listed in the commit: one, a token set on a command line (TRACKGENTIC_TOKEN=tk_...).
    assert masked / lines * 1000 < 1


def test_no_secret_of_the_corpus_reaches_a_live_run_its_saved_log_or_transcript(
    log: Path, tmp_path: Path
) -> None:
    script = f"import sys\nsys.stdout.write(open({str(log)!r}).read())\n"
    entries: list[Any] = []
    saved, transcript = tmp_path / "run.log", tmp_path / "run.jsonl"
    result = run_agent(
        [sys.executable, "-c", script],
        "claude_local",
        env={"PATH": "/usr/bin:/bin"},
        on_entry=entries.append,
        save_log=saved,
        save_transcript=transcript,
        redact=True,
    )
    assert result.exit_code == 0
    for name, output in [("entries", json.dumps(entries)), ("transcript", transcript.read_text())]:
        shown = _readable(output)
        assert {kind: core for kind, core in _cores().items() if core in shown} == {}, name
    # The saved log is masked line by line: no secret is in it whole, in any spelling (the
    # halves of one split across two streamed deltas are each one line's, as printed).
    log_text = _readable(saved.read_text())
    assert [kind for kind, secret in SECRETS.items() if secret in log_text] == []
    assert PASSWORD not in log_text and PEM_BODY[1] not in log_text
    # The saved log is still the agent's JSON lines, each secret masked inside its string.
    lines = saved.read_text().splitlines()
    assert len(lines) == len(secret_log()) and all(json.loads(line) for line in lines)
    assert "[redacted: aws-access-key]" in saved.read_text()
    assert result.diagnostics.redactions.get("aws-access-key", 0) > 0
