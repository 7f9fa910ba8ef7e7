"""Secret redaction: every spelling a secret takes in agent output is masked, in linear time."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise import run_agent
from linewise.render.redaction.redactor import MASK, Redactor
from scaling import assert_linear
from support import REPO

FAKES = REPO / "tests" / "fakes"
VALUE = "  sk/live-0123456789abcdef\r"  # set with surrounding spaces and a trailing CR
SECRET = VALUE.strip()
ON, OFF = "\x1b[01;31m\x1b[K", "\x1b[m\x1b[K"

#: What each line of tests/fakes/spell_secret.py must become: the secret masked, every
#: other byte (the colour codes inside the secret too, after the mask) as the agent wrote it.
MASKED = {
    "raw": f"raw {MASK}",
    "as-set": f"as-set [{MASK}]",
    "json-u": f'"{MASK}"',
    "solidus": f'"{MASK}"',
    "grep": f"KEY={ON}{MASK}{OFF}",
    "inside": f"{MASK}\x1b[1;32m\x1b[0m",
    "json-grep": json.dumps({"text": f"KEY={ON}{MASK}{OFF}"}),
}


def _spell_secret() -> ModuleType:
    spec = importlib.util.spec_from_file_location("spell_secret", FAKES / "spell_secret.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SPELLINGS: dict[str, str] = _spell_secret().spellings(VALUE)


def test_the_fake_agent_prints_every_spelling_the_masks_expect() -> None:
    assert set(SPELLINGS) == set(MASKED)
    assert "\\u001b[01;31m" in SPELLINGS["json-grep"]  # colour codes escaped inside JSON


def masked(data: bytes, cut: int | None = None) -> bytes:
    """``data`` through a fresh redactor for VALUE, whole or in pieces of ``cut`` bytes."""
    redactor = Redactor.for_environment({"API_KEY": VALUE})
    step = cut or len(data) or 1
    out = [redactor.feed(data[i : i + step]) for i in range(0, len(data), step)]
    return b"".join(out) + redactor.flush()


@pytest.mark.parametrize("name", list(MASKED))
@pytest.mark.parametrize("cut", [None, 1, 2, 5])
def test_each_spelling_is_masked_wherever_the_stream_is_cut(name: str, cut: int | None) -> None:
    line = SPELLINGS[name].encode() + b"\n"
    assert masked(line, cut) == MASKED[name].encode() + b"\n"


def test_colour_codes_around_a_secret_are_left_alone() -> None:
    line = f"\x1b[31m{SECRET}\x1b[0m and \x1b[1mbold\x1b[0m\n".encode()
    assert masked(line, 3) == f"\x1b[31m{MASK}\x1b[0m and \x1b[1mbold\x1b[0m\n".encode()


def test_colour_codes_without_a_secret_pass_unchanged_and_unheld() -> None:
    redactor = Redactor([SECRET])
    text = b"\x1b[01;31m\x1b[Ksk/\x1b[m\x1b[K other\n"
    assert redactor.feed(text) == text
    # Only an unfinished escape right after a possible secret start waits.
    assert redactor.feed(b"x sk/live\x1b[0") == b"x "
    assert redactor.feed(b"1m-0123456789abcdef!") == f"{MASK}\x1b[01m!".encode()


def test_text_masks_a_secret_with_colour_codes_inside() -> None:
    redactor = Redactor([SECRET])
    assert redactor.text(f"use {SECRET[:4]}\x1b[1m{SECRET[4:]} now") == f"use {MASK}\x1b[1m now"


_PIECES = st.sampled_from(["a", "b", "x\n", "\x1b[1m", "\x1b[m", "\\u001b[31m", "\\", "\x1b"])


@given(
    secrets=st.lists(st.text(alphabet="ab\\", min_size=1, max_size=6), min_size=1, max_size=2),
    pieces=st.lists(_PIECES, max_size=40),
    colours=st.lists(st.sampled_from(["", "\x1b[1m", "\\u001b[0;32m"]), min_size=6, max_size=6),
    cuts=st.lists(st.integers(1, 9), max_size=40),
)
def test_masking_with_colour_codes_does_not_depend_on_the_cuts(
    secrets: list[str], pieces: list[str], colours: list[str], cuts: list[int]
) -> None:
    # The first secret once with colour codes between its characters.
    coloured = "".join(c + colour for c, colour in zip(secrets[0], colours, strict=False))
    text = "".join([*pieces, coloured, *secrets, *pieces[::-1]]).encode()
    whole = Redactor(secrets)
    expected = whole.feed(text) + whole.flush()
    redactor = Redactor(secrets)
    out, position = [], 0
    for cut in cuts:
        out.append(redactor.feed(text[position : position + cut]))
        position += cut
    out.append(redactor.feed(text[position:]))
    out.append(redactor.flush())
    assert b"".join(out) == expected
    assert MASK.encode() in expected


# -- linear time and memory ---------------------------------------------------------------


def test_masking_output_full_of_colour_codes_is_linear() -> None:
    redactor = Redactor([SECRET])

    def make(size: int) -> bytes:
        return (f"{SECRET[:5]}\x1b[1m{SECRET[5:]}\x1b[0m sk/\x1b[31m ".encode()) * size

    assert_linear(lambda data: redactor.feed(data) + redactor.flush(), make, 500)


def test_a_possible_secret_start_followed_by_endless_colour_codes_stays_linear() -> None:
    def feed_all(chunks: list[bytes]) -> int:
        redactor = Redactor([SECRET])
        size = sum(len(redactor.feed(chunk)) for chunk in chunks)
        return size + len(redactor.flush())

    # "sk/" could begin the secret while codes keep coming: what is held back stays bounded.
    assert_linear(feed_all, lambda size: [b"sk/"] + [b"\x1b[1m\x1b[0m"] * size, 500)
    redactor = Redactor([SECRET])
    out = redactor.feed(b"sk/" + b"\x1b[1m" * 10_000)
    assert len(out) > 30_000  # released, not held


def test_a_long_secret_with_codes_inside_is_masked_in_linear_time() -> None:
    def make(size: int) -> tuple[Redactor, bytes]:
        secret = "".join(chr(97 + i % 26) for i in range(size))
        return Redactor([secret]), "".join(c + "\x1b[1m" for c in secret).encode()

    def work(value: tuple[Redactor, bytes]) -> bytes:
        redactor, data = value
        return redactor.feed(data) + redactor.flush()

    assert_linear(work, make, 2000)
    redactor, data = make(1000)
    assert work((redactor, data)).startswith(MASK.encode())


# -- through a live run and its saved log --------------------------------------------------


def test_every_spelling_is_masked_in_a_live_run_and_its_saved_log(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    entries: list[dict[str, Any]] = []
    result = run_agent(
        [sys.executable, str(FAKES / "spell_secret.py"), "API_KEY"],
        "process",
        on_entry=entries.append,  # type: ignore[arg-type]
        env={"API_KEY": VALUE, "PATH": "/usr/bin:/bin"},
        save_log=log,
    )
    assert result.exit_code == 0
    # Byte for byte what the agent wrote, but for the masks.
    assert log.read_bytes() == "".join(f"{line}\n" for line in MASKED.values()).encode()
    shown = [entry["text"] for entry in entries if entry["kind"] == "stdout"]
    assert shown == list(MASKED.values())
    everything = log.read_text() + json.dumps(entries)
    assert "0123456789abcdef" not in everything and "\\u0030" not in everything
