"""Throughput and scaling benchmark for the linewise-segments streaming parser.

Usage::

    python benchmarks/segments_bench.py              # everything, 1 MB and 10 MB
    python benchmarks/segments_bench.py --quick      # 0.1 MB and 1 MB (same 10x ratio)
    python benchmarks/segments_bench.py --char-pathological   # also 1-char pathological runs
    python benchmarks/segments_bench.py --quick --only "run of ["   # one input

Measures MB/s (1 MB = 10**6 characters) for a generated stream with a few
hundred blocks of every kind per 10 MB (prose between them, one line in ten
with "<", "{" or "[" that are not markers), fed in random 1-64 character chunks
and in 1-character chunks, and for pathological inputs (unclosed tag
prefixes, unclosed sentinel headers, very long segments, many small blocks in
one chunk). For every input it also prints the time ratio between the larger
and the smaller size: about 10 means linear scaling, about 100 quadratic.
Timing covers feed() and finalize() only (streams and chunk lists are built
beforehand), best of --repeat runs because shared machines are noisy. Not a
test: nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Iterator

from linewise_segments import ParserConfig, SegmentParser

MB = 1_000_000
#: Every strategy on, so every kind of block in the generated stream is parsed.
CONFIG = ParserConfig(strategies=("xml_tag", "json_tool", "sentinel"))
BLOCKS_PER_KIND_PER_10MB = 300

_VOCABULARY = (
    "the parser reads model output and splits it into text reasoning and tool calls "
    "while chunks arrive in any size so every boundary must be handled carefully"
)
_WORDS = _VOCABULARY.split()
#: Prose is not marker-free: one line in ten is markdown-ish code with "<",
#: "{" and "[" that must be looked at and found not to be markers.
_CODE_LINES = (
    "Note that `a < b` holds when `x > y`, see {braces} and [brackets].\n",
    "```\nif (n <= 0) { return [] }\n```\n",
    'Use <b>bold</b> or a <tool-like> word; the list is [1, 2, 3] and {"k": 1}.\n',
)


def _prose(rng: random.Random, size: int) -> str:
    lines: list[str] = []
    total = 0
    while total < size:
        if rng.random() < 0.1:
            line = rng.choice(_CODE_LINES)
        else:
            line = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 20))) + ".\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)


def _code(rng: random.Random, size: int) -> str:
    lines: list[str] = []
    total = 0
    while total < size:
        n = rng.randint(0, 999)
        line = rng.choice(
            (
                f"    value_{n} = compute({n}) + 1  # keep < {n}\n",
                f"    if a[{n}] > b and c['k'] != \"{n}\":\n",
                f"    html = '<div class=\"c{n}\">{n}</div>'\n",
                f"def handler_{n}(event: dict[str, int]) -> list[int]:\n",
            )
        )
        lines.append(line)
        total += len(line)
    return "".join(lines)


def _blocks(rng: random.Random) -> list[Callable[[], str]]:
    def code() -> str:
        return _code(rng, rng.randint(500, 3000))

    return [
        lambda: f"<write_file path='/src/mod_{rng.randint(0, 99)}.py'>\n{code()}</write_file>\n",
        lambda: f"<run_bash>cd /repo && pytest -q tests/test_{rng.randint(0, 99)}.py</run_bash>\n",
        lambda: (
            '<tool name="read_file"><arguments><arg name="path">/src/a.py</arg>'
            '<arg name="lines">1-200</arg></arguments></tool>\n'
        ),
        lambda: (
            '<tool name="write_file"><arguments><arg name="path">/src/w.py</arg>'
            f'<arg name="content">__START_CONTENT__\n{code()}__END_CONTENT__</arg>'
            "</arguments></tool>\n"
        ),
        lambda: (
            '<tool name="patch_file"><arguments><arg name="path">/src/p.py</arg>'
            f'<arg name="patch">@@ -1,3 +1,3 @@\n-old\n+new\n{code()}</arg></arguments></tool>\n'
        ),
        lambda: (
            '<tool name="run_bash"><arguments><arg name="command">ls -la /tmp</arg>'
            "</arguments></tool>\n"
        ),
        lambda: f"<think>{_prose(rng, rng.randint(300, 2000))}</think>\n",
        lambda: (
            '{"name": "search", "arguments": {"query": "streaming parser", '
            f'"limit": {rng.randint(1, 50)}, "filters": [{{"lang": "py"}}]}}}}\n'
        ),
        lambda: f'[[SEG_START {{"type":"write_file","path":"/s.py"}}]]{code()}[[SEG_END]]\n',
        lambda: (
            '[[SEG_START {"type":"tool","tool_name":"create_tasks",'
            '"arguments":{"tasks":[{"name":"a"}]}}]][[SEG_END]]\n'
        ),
    ]


def mixed_stream(size: int, seed: int = 1) -> str:
    """A stream of prose with a few hundred blocks of every kind per 10 MB."""
    rng = random.Random(seed)
    makers = _blocks(rng)
    count = max(1, BLOCKS_PER_KIND_PER_10MB * size // (10 * MB))
    blocks = [make() for make in makers for _ in range(count)]
    rng.shuffle(blocks)
    gap = max(0, (size - sum(map(len, blocks))) // (len(blocks) + 1))
    parts: list[str] = []
    for block in blocks:
        parts.append(_prose(rng, gap))
        parts.append(block)
    parts.append(_prose(rng, gap))
    return _fit("".join(parts), size)


def _fit(text: str, size: int) -> str:
    return (text * (size // max(1, len(text)) + 1))[:size]


def _repeat(unit: str, size: int) -> str:
    return _fit(unit, size)


PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    # Many tag openings that never close, and one whose quote never closes.
    "unclosed tag prefixes": lambda size: _repeat(
        "see <write_file path=\"/a.py\" and <tool name='x' and <run_ba and <thin text ", size
    ),
    "one unclosed tag": lambda size: '<write_file path="' + "a" * (size - 18),
    # Sentinel headers that never end, many and one.
    "unclosed sentinel headers": lambda size: _repeat(
        '[[SEG_START {"type": "write_file", "path": "/a.py" text [[SEG_START {"t', size
    ),
    "one unclosed sentinel header": lambda size: '[[SEG_START {"type": "' + "a" * (size - 22),
    # Brackets that never become a sentinel (once a candidate object per "[").
    "a run of [": lambda size: "[" * size,
    "sentinel literals cut short": lambda size: _repeat("[[S", size),
    # One segment as long as the stream.
    "very long text segment": lambda size: _prose(random.Random(2), size)[:size],
    "very long write_file": lambda size: (
        "<write_file path='/big.py'>" + _code(random.Random(3), size - 40)[: size - 40]
    ),
    "many small blocks": lambda size: _repeat("<run_bash>ls</run_bash><think>ok</think>x", size),
}


def random_chunks(text: str, seed: int = 7) -> list[str]:
    """``text`` cut into random 1-64 character chunks."""
    rng = random.Random(seed)
    chunks: list[str] = []
    pos = 0
    while pos < len(text):
        step = rng.randint(1, 64)
        chunks.append(text[pos : pos + step])
        pos += step
    return chunks


def time_parse(chunks: list[str] | str, repeat: int = 1, config: ParserConfig = CONFIG) -> float:
    """Best of ``repeat`` runs: seconds to feed every chunk and finalize (events dropped)."""
    best = float("inf")
    for _ in range(repeat):
        parser = SegmentParser(config)
        feed = parser.feed
        gc.collect()
        start = time.perf_counter()
        for chunk in chunks:
            feed(chunk)
        parser.finalize()
        best = min(best, time.perf_counter() - start)
    return best


def _chunkings(text: str, names: tuple[str, ...]) -> Iterator[tuple[str, list[str] | str]]:
    for name in names:
        if name == "random 1-64":
            yield name, random_chunks(text)
        elif name == "1 char":
            yield name, text  # iterating a str yields 1-character chunks
        else:
            yield name, [text]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per (input, chunking)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="0.1 MB and 1 MB instead of 1 and 10")
    parser.add_argument(
        "--repeat", type=int, default=2, help="runs per measurement, the best is kept (default 2)"
    )
    parser.add_argument(
        "--char-pathological",
        action="store_true",
        help="also feed pathological inputs 1 char at a time",
    )
    parser.add_argument(
        "--only", default="", help="only the inputs whose name holds this text (e.g. 'run of [')"
    )
    args = parser.parse_args(argv)
    small, large = (MB // 10, MB) if args.quick else (MB, 10 * MB)

    inputs: list[tuple[str, Callable[[int], str], tuple[str, ...]]] = [
        ("mixed stream", mixed_stream, ("random 1-64", "1 char")),
        # The engine's default configuration (xml tags only), as a parser is built by default.
        ("mixed stream, xml only", mixed_stream, ("random 1-64", "1 char")),
    ]
    patho_chunkings = ("random 1-64", "one chunk") + (("1 char",) if args.char_pathological else ())
    inputs += [(name, make, patho_chunkings) for name, make in PATHOLOGICAL.items()]
    inputs = [one for one in inputs if args.only in one[0]]

    print(f"python {sys.version.split()[0]}; sizes {small / MB:g} MB and {large / MB:g} MB")
    # 1 MB is 10**6 characters, so microseconds a character is 1 / (MB/s).
    print(f"{'input':30} {'chunking':12} {'small MB/s':>10} {'large MB/s':>10} {'ratio':>6}")
    for name, make, chunkings in inputs:
        texts = {size: make(size) for size in (small, large)}
        for chunking in chunkings:
            seconds = {}
            for size, text in texts.items():
                [(_, chunks)] = list(_chunkings(text, (chunking,)))
                config = ParserConfig() if name.endswith("xml only") else CONFIG
                seconds[size] = time_parse(chunks, args.repeat, config)
            print(
                f"{name:30} {chunking:12} {small / seconds[small] / MB:10.2f} "
                f"{large / seconds[large] / MB:10.2f} {seconds[large] / seconds[small]:6.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
