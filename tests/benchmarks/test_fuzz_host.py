"""The host fuzzer (benchmarks/fuzz_host.py), run briefly on the real corpus in the default suite."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from linewise import Registry
from support import REPO, corpus_path


def _load_fuzzer() -> ModuleType:
    path = REPO / "benchmarks" / "fuzz_host.py"
    spec = importlib.util.spec_from_file_location("fuzz_host", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_host"] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzzer()


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[str]]:
    root: Path = corpus_path("real-logs")
    return fuzz.corpus_lines(root)  # type: ignore[no-any-return]


def test_every_first_party_adapter_type_is_fuzzed() -> None:
    installed = set(Registry().adapter_types) - {"process"}
    assert set(fuzz.ADAPTERS) == installed


def test_a_few_thousand_mutated_real_lines_break_no_promise(
    corpus: dict[str, list[str]],
) -> None:
    out: list[str] = []
    tallies = fuzz.run(200 * len(fuzz.ADAPTERS), 7, list(fuzz.ADAPTERS), corpus, out.append)
    assert [tally.adapter_type for tally in tallies] == list(fuzz.ADAPTERS)
    assert all(tally.lines == 200 for tally in tallies), out
    assert [failure for tally in tallies for failure in tally.failures] == [], "\n".join(out)
    assert all(tally.entries > 0 for tally in tallies)


def test_the_same_seed_gives_the_same_lines(corpus: dict[str, list[str]]) -> None:
    pool = [line for lines in corpus.values() for line in lines]

    def lines(seed: int) -> list[object]:
        rng = fuzz.random.Random(seed)
        return [fuzz.mutated_line(line, pool, rng).chunks for line in pool[:300]]

    assert lines(3) == lines(3)
    assert lines(3) != lines(4)


def test_the_mutations_cover_the_hostile_shapes(corpus: dict[str, list[str]]) -> None:
    pool = [line for lines in corpus.values() for line in lines]
    rng = fuzz.random.Random(11)
    feeds = [fuzz.mutated_line(rng.choice(pool), pool, rng) for _ in range(3000)]
    texts = [feed.text for feed in feeds]
    assert any("1" * 400 in text for text in texts)
    assert any("1e400" in text or "1E+309" in text for text in texts)
    assert any("[" * 300 in text or '{"a":' * 300 in text for text in texts)
    assert any("\ud800" in text or "\\ud800" in text for text in texts)
    assert any("\x00" in text or "\\u0000" in text for text in texts)
    assert any("\x1b]" in text or "\\u001b]" in text for text in texts)
    assert any(isinstance(feed.chunks[0], bytes) for feed in feeds)
    assert any(len(feed.chunks) > 1 for feed in feeds)
    assert any(text.count("\n") > 1 for text in texts)


def test_a_broken_promise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(fuzz.FuzzFailure, match="invalid entry"):
        fuzz._check_entries([{"kind": "assistant", "ts": 1, "text": "hi"}], "here")
    # JSON with allow_nan=False is checked on its own, whatever the validator says.
    monkeypatch.setattr(fuzz, "entry_problem", lambda entry: None)
    with pytest.raises(fuzz.FuzzFailure, match="not JSON"):
        fuzz._check_entries([{"kind": "result", "ts": "t", "costUsd": float("inf")}], "here")
