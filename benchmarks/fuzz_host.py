"""Fuzz every first-party parser through the host's real pipeline with mutated real log lines.

Run with `python3 -m uv run python benchmarks/fuzz_host.py --lines 1000000`.
Lines come from ``../shared/corpus/real-logs`` and ``real-sessions`` (each
adapter type gets the lines of its own agent when the corpus has them, mixed
with every other agent's lines); each one is mutated (fields removed, retyped or cut, deep
nesting, huge numbers, lone surrogates, NUL, ANSI/OSC sequences, byte flips,
cut and concatenated lines) and fed to ``linewise.open_session(adapter)``
in random chunks. For every line the fuzzer asserts that no exception
escapes, every entry passes ``linewise_contracts.entry_problem`` and is JSON
with ``allow_nan=False``, and the session's diagnostics count the line and
stay accounted. The same seed gives the same lines; a failure prints the
seed, adapter type and the exact input so it can be replayed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import linewise
from linewise_contracts import entry_problem

#: The corpus of real third-party logs (relative to the repository root).
CORPUS: Final = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real-logs"

#: First-party adapter types and the corpus folders that hold their agent's real output.
ADAPTERS: Final[dict[str, tuple[str, ...]]] = {
    "claude_local": ("claude", "qwen"),
    "codex_local": ("codex",),
    # No app-server captures in real-logs/ (its field samples are integrators' fixtures).
    "codex_app_server": (),
    "cursor": ("cursor",),
    "cursor_cloud": ("cursor",),
    "cursor_session": (),
    "gemini_local": ("gemini",),
    "opencode_local": ("opencode",),
    "pi_local": (),
    "pi_session": (),
    "grok_local": (),
    "grok_session": (),
    "hermes_local": ("hermes",),
    "hermes_session": (),
    "model_stream": (),
    "model_stream_json": (),
    "model_stream_sentinel": (),
    "tally_local": (),
    "acp": ("acp",),
    "claude_session": ("sessions/claude",),
    "claude_subagent": ("sessions/claude",),
    "codex_session": ("sessions/codex",),
    "gemini_session": ("sessions/gemini",),
    "opencode_session": ("sessions/opencode",),
    "qwen_session": ("sessions/qwen",),
    "qwen_local": ("qwen",),
    "copilot_session": ("sessions/copilot",),
    # No real Copilot stdout in the corpus: everyone's mutated lines.
    "copilot_local": (),
    "copilot_history": (),
    # Newer CLIs: no real logs in real-logs/ (their field samples are too few to lean on).
    "agy_local": (),
    "droid_local": (),
    "droid_session": (),
    "kimi_local": (),
    "kimi_session": (),
    "goose_local": (),
    "goose_session": (),
    "cline_local": (),
    "paperclip_runner": (),
    "amp_local": ("claude",),
    "amp_session": (),
    "vibe_local": (),
    "vibe_session": (),
    "openhands_local": (),
    "openhands_session": (),
    "rush_session": (),
}

#: Parsers that declare ``raw_lines`` (see ``StdoutParser.raw_lines``): they see every
#: line as printed, blank ones too, so the host counts those as well.
RAW_LINES: Final = frozenset({"model_stream", "model_stream_json", "model_stream_sentinel"})

#: Lines fed to one session before it is closed and a fresh one opened.
SESSION_LINES: Final = 200

_SENTINEL: Final = "__linewise_fuzz_raw__"
_HUGE_LITERALS: Final = (
    "1" * 400,
    "-" + "9" * 400,
    "9" * 5000,
    "1e400",
    "-1e999",
    "1E+309",
    "0.5e-400",
    "NaN",
    "Infinity",
    "-Infinity",
    "1" * 400 + ".5",
)
_ESCAPES: Final = (
    "\x1b[31m",
    "\x1b[0m",
    "\x1b[2J\x1b[H",
    "\x1b]0;title\x07",
    "\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\",
    "\x1bP1$r\x1b\\",
    "\x1b^private\x1b\\",
    "\x1b_apc payload\x1b\\",
    "\x9b1m",
    "\x07",
    "\r",
    "\x08\x08",
)
_ODD_CHARS: Final = ("\x00", "\ud800", "\udfff", "\ufeff", "\u2028", "\u202e", "\ufffd", "💬")
_RETYPES: Final[tuple[Any, ...]] = (
    None,
    True,
    0,
    -1,
    1.5,
    "",
    "text",
    [],
    {},
    [None],
    {"": None},
    10**20,
    1.7976931348623157e308,
)


def corpus_lines(root: Path = CORPUS) -> dict[str, list[str]]:
    """The non-blank lines of each corpus folder (invalid UTF-8 replaced).

    The session stores beside the logs (``real-sessions``), when there, count
    as folders ``sessions/<cli>``.
    """
    found: dict[str, list[str]] = {}
    sessions = root.parent / "real-sessions"
    folders = [(path.name, path) for path in root.iterdir() if path.is_dir()]
    if sessions.is_dir():
        folders += [(f"sessions/{path.name}", path) for path in sessions.iterdir() if path.is_dir()]
    for name, folder in sorted(folders):
        lines: list[str] = []
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                text = file.read_bytes().decode("utf-8", "replace")
                lines.extend(line for line in text.splitlines() if line.strip())
        if lines:
            found[name] = lines
    return found


# -- mutations -----------------------------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


def _set(value: Any, path: tuple[Any, ...], new: Any, *, delete: bool = False) -> Any:
    if not path:
        return new
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return value


def _strings(value: Any) -> list[tuple[Any, ...]]:
    return [path for path in _paths(value) if isinstance(_get(value, path), str)]


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _dump(value: Any, rng: random.Random) -> str:
    return json.dumps(value, ensure_ascii=rng.random() < 0.5, separators=(",", ":"))


def _nested(rng: random.Random) -> str:
    depth = rng.choice((50, 300, 511, 513, 1000, 3000))
    if rng.random() < 0.5:
        return "[" * depth + "1" + "]" * depth
    return '{"a":' * depth + '"x"' + "}" * depth


def _raw_at(doc: Any, rng: random.Random, raw: str) -> str:
    """``doc`` as JSON text with ``raw`` (not necessarily JSON) in place of one value."""
    paths = list(_paths(doc))
    path = rng.choice(paths[1:]) if len(paths) > 1 else ()
    text = _dump(_set(doc, path, _SENTINEL), rng)
    return text.replace(json.dumps(_SENTINEL), raw, 1)


def mutate_json(doc: Any, rng: random.Random) -> str:
    """One structural mutation of a parsed JSON line, as text."""
    paths = list(_paths(doc))
    choice = rng.randrange(8)
    if choice == 0 and len(paths) > 1:  # a field removed
        path = rng.choice(paths[1:])
        return _dump(_set(doc, path, None, delete=True), rng)
    if choice == 1:  # a field retyped
        path = rng.choice(paths)
        return _dump(_set(doc, path, rng.choice(_RETYPES)), rng)
    if choice == 2:  # a string cut short or made long
        strings = _strings(doc)
        if strings:
            path = rng.choice(strings)
            text = _get(doc, path)
            new = text[: rng.randrange(len(text) + 1)] if rng.random() < 0.7 else text * 2000
            return _dump(_set(doc, path, new), rng)
    if choice == 3:  # a huge number literal
        return _raw_at(doc, rng, rng.choice(_HUGE_LITERALS))
    if choice == 4:  # deep nesting
        return _raw_at(doc, rng, _nested(rng))
    if choice == 5:  # odd characters inside a string
        strings = _strings(doc)
        if strings:
            path = rng.choice(strings)
            text = _get(doc, path)
            cut = rng.randrange(len(text) + 1)
            odd = rng.choice(_ODD_CHARS + _ESCAPES)
            return _dump(_set(doc, path, text[:cut] + odd + text[cut:]), rng)
    if choice == 6:  # a huge Python number (the stdlib fallback parses these as ints)
        path = rng.choice(paths)
        return _dump(_set(doc, path, rng.choice((10**400, -(10**309), 2**1024))), rng)
    return _raw_at(doc, rng, rng.choice(("true", "null", '""', "[]", "{}", "-0", "1e308")))


def mutate_text(line: str, rng: random.Random) -> str:
    """One mutation of a line's text, JSON or not."""
    choice = rng.randrange(6)
    cut = rng.randrange(len(line) + 1)
    if choice == 0:  # a cut line
        return line[:cut]
    if choice == 1:  # an escape sequence or odd character inserted
        return line[:cut] + rng.choice(_ESCAPES + _ODD_CHARS) + line[cut:]
    if choice == 2:  # random characters replaced
        chars = list(line)
        for _ in range(rng.randint(1, 4)):
            if chars:
                chars[rng.randrange(len(chars))] = chr(rng.choice((0, 0x1B, 0xD800, 0x7F, 0x22)))
        return "".join(chars)
    if choice == 3:  # wrapped in colour
        return "\x1b[1;32m" + line + "\x1b[0m"
    if choice == 4:  # a line repeated many times on one line
        return line * rng.randint(2, 50)
    return line[cut:]


@dataclass(frozen=True, slots=True)
class Feed:
    """What one mutated line becomes: the chunks fed, as ``str`` or ``bytes``."""

    chunks: tuple[str | bytes, ...]

    @property
    def text(self) -> str:
        """The text the host reads from the chunks (how its reader decodes them)."""
        texts = [chunk for chunk in self.chunks if isinstance(chunk, str)]
        if len(texts) == len(self.chunks):
            return "".join(texts)
        data = b"".join(chunk for chunk in self.chunks if isinstance(chunk, bytes))
        return data.decode("utf-8", "replace")


def _split(data: str | bytes, rng: random.Random) -> tuple[str | bytes, ...]:
    if len(data) < 2 or rng.random() < 0.6:
        return (data,)
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(1, 3))))
    bounds = [0, *cuts, len(data)]
    return tuple(data[a:b] for a, b in itertools.pairwise(bounds))


def mutated_line(line: str, pool: Sequence[str], rng: random.Random) -> Feed:
    """``line`` mutated (sometimes twice), ended by a newline, cut into chunks."""
    text = line
    try:
        doc = json.loads(line)
    except ValueError:
        doc = None
    if isinstance(doc, dict | list) and rng.random() < 0.7:
        text = mutate_json(doc, rng)
    if doc is None or rng.random() < 0.4:
        text = mutate_text(text, rng)
    if rng.random() < 0.08:  # two lines run together
        text = text + rng.choice(("", " ", "\r")) + rng.choice(pool)
    if rng.random() < 0.05:  # two lines in one chunk
        text = text + "\n" + rng.choice(pool)
    ending = rng.choice(("\n", "\n", "\n", "\r\n"))
    if rng.random() < 0.2:
        data = (text + ending).encode("utf-8", "surrogatepass")
        flipped = bytearray(data)
        for _ in range(rng.randint(0, 3)):
            index = rng.randrange(len(flipped))
            flipped[index] ^= 1 << rng.randrange(8)
        if flipped[-1:] != b"\n":
            flipped += b"\n"
        return Feed(_split(bytes(flipped), rng))
    return Feed(_split(text + ending, rng))


# -- the checks -----------------------------------------------------------------


class FuzzFailure(AssertionError):
    """One line broke a promise of the host; the message holds what to replay."""


def _line_count(text: str, raw: bool) -> int:
    """Lines in ``text`` as the host counts them: non-blank ones, or all for a raw-line parser."""
    if raw:
        return text.count("\n")
    return sum(1 for piece in text.split("\n") if piece.strip().lstrip("\ufeff").strip())


def _check_entries(entries: list[Any], where: str) -> None:
    for entry in entries:
        problem = entry_problem(entry)
        if problem is not None:
            raise FuzzFailure(f"{where}: invalid entry ({problem}): {entry!r:.500}")
        try:
            json.dumps(entry, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise FuzzFailure(f"{where}: entry is not JSON ({error}): {entry!r:.500}") from error


@dataclass(slots=True)
class Tally:
    """What one adapter type was fed and how long it took."""

    adapter_type: str
    lines: int = 0
    entries: int = 0
    fallback_lines: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    # What the safety net caught (parser exceptions, dropped entries): contained, but worth a look.
    caught: list[str] = field(default_factory=list)


def _fail(tally: Tally, message: str, feed: Feed) -> None:
    tally.failures.append(f"{message}\n    input chunks: {feed.chunks!r:.2000}")


def fuzz_session(adapter_type: str, feeds: Sequence[Feed], tally: Tally) -> None:
    """Feed ``feeds`` through one session of ``adapter_type``, checking every line."""
    session = linewise.open_session(adapter_type, clock=lambda: "2026-01-01T00:00:00.000Z")
    diagnostics = session.diagnostics
    for number, feed in enumerate(feeds):
        where = f"{adapter_type} line {number}"
        before = diagnostics.lines
        entries: list[Any] = []
        try:
            for chunk in feed.chunks:
                entries.extend(session.feed(chunk))
        except Exception as error:  # anything escaping is what the fuzzer looks for
            _fail(tally, f"{where}: {type(error).__name__} escaped feed(): {error}", feed)
            return
        try:
            _check_entries(entries, where)
        except FuzzFailure as failure:
            _fail(tally, str(failure), feed)
        expected = _line_count(feed.text, adapter_type in RAW_LINES)
        if diagnostics.lines - before != expected or not diagnostics.accounted:
            _fail(
                tally,
                f"{where}: diagnostics counted {diagnostics.lines - before} lines, "
                f"expected {expected} (accounted={diagnostics.accounted})",
                feed,
            )
        tally.lines += 1
        tally.entries += len(entries)
    try:
        entries = session.close()
    except Exception as error:
        tally.failures.append(f"{adapter_type}: {type(error).__name__} escaped close(): {error}")
        return
    try:
        _check_entries(entries, f"{adapter_type} close()")
    except FuzzFailure as failure:
        tally.failures.append(str(failure))
    tally.entries += len(entries)
    tally.fallback_lines += diagnostics.fallback_lines
    for error in diagnostics.first_errors:
        if len(tally.caught) < 10:
            tally.caught.append(
                f"{error.error_type}: {error.message} on {error.line_preview!r:.300}"
            )
    for reason, count in diagnostics.drop_reasons.items():
        if len(tally.caught) < 10:
            tally.caught.append(f"{count} entries dropped: {reason}")
    if diagnostics.adapter_type != adapter_type:
        tally.failures.append(
            f"{adapter_type}: the session fell back to {diagnostics.adapter_type} "
            f"({diagnostics.fallback_reason})"
        )


def fuzz_adapter(
    adapter_type: str,
    lines: int,
    corpus: dict[str, list[str]],
    seed: int,
    *,
    stop_after: int = 20,
) -> Tally:
    """Fuzz ``adapter_type`` with ``lines`` mutated lines; same seed, same lines."""
    rng = random.Random(f"{seed}:{adapter_type}")
    everything = [line for folder in sorted(corpus) for line in corpus[folder]]
    own = [line for folder in ADAPTERS.get(adapter_type, ()) for line in corpus.get(folder, [])]
    tally = Tally(adapter_type)
    started = time.perf_counter()
    while tally.lines < lines and len(tally.failures) < stop_after:
        batch = min(SESSION_LINES, lines - tally.lines)
        feeds = []
        for _ in range(batch):
            source = own if own and rng.random() < 0.8 else everything
            feeds.append(mutated_line(rng.choice(source), everything, rng))
        fed = tally.lines
        fuzz_session(adapter_type, feeds, tally)
        if tally.lines == fed:  # the session died on its first line: count it and go on
            tally.lines += 1
    tally.seconds = time.perf_counter() - started
    return tally


def run(
    total: int,
    seed: int,
    adapter_types: Sequence[str],
    corpus: dict[str, list[str]],
    out: Callable[[str], None] = print,
) -> list[Tally]:
    """Fuzz each adapter type with an equal share of ``total`` lines (rounded up); report as it goes."""
    share = max(1, -(-total // len(adapter_types)))  # rounded up: at least ``total`` in all
    tallies = []
    for adapter_type in adapter_types:
        tally = fuzz_adapter(adapter_type, share, corpus, seed)
        tallies.append(tally)
        rate = tally.lines / tally.seconds if tally.seconds else 0.0
        out(
            f"{adapter_type:<22} {tally.lines:>9} lines {tally.seconds:8.1f} s "
            f"({rate:,.0f} lines/s) {tally.entries:>9} entries "
            f"{tally.fallback_lines:>7} fallbacks {len(tally.failures):>3} failures"
        )
        for failure in tally.failures:
            out("  FAIL " + failure)
        for caught in tally.caught:
            out("  caught by the safety net: " + caught)
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``--lines`` in total, ``--seed``, ``--adapter`` (repeatable)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--lines", type=int, default=10_000, help="mutated lines in total")
    parser.add_argument("--seed", type=int, default=1, help="random seed (same seed, same lines)")
    parser.add_argument("--adapter", action="append", help="adapter type (default: all)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="real-logs folder")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    adapter_types = args.adapter or list(ADAPTERS)
    corpus = corpus_lines(args.corpus)
    print(
        f"fuzzing {len(adapter_types)} adapter types, {args.lines} lines in total, "
        f"seed {args.seed}, {sum(map(len, corpus.values()))} real lines",
        flush=True,
    )
    started = time.perf_counter()
    tallies = run(
        args.lines, args.seed, adapter_types, corpus, lambda text: print(text, flush=True)
    )
    lines = sum(t.lines for t in tallies)
    failures = sum(len(t.failures) for t in tallies)
    print(f"total: {lines} lines in {time.perf_counter() - started:.1f} s, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
