"""The plugin guard: whatever a plugin raises or returns, the host records it and carries on."""

from __future__ import annotations

import logging
import threading
from typing import Any

import pytest
from linewise import Registry, open_session
from linewise.plugins.guard import (
    PluginCallError,
    describe,
    is_import_failure,
    is_plugin_failure,
    sniff_score,
)
from linewise.stream.detect import detect_adapter
from linewise.transcript.summary import plugin_summary
from support import FakeSite

TS = "2026-01-01T00:00:00.000Z"

PARSE = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
)


def _site(fake_site: FakeSite, **plugins: str) -> Registry:
    for adapter_type, source in plugins.items():
        fake_site.add(
            adapter_type.replace("_", "-"),
            entry_points={adapter_type: f"{adapter_type}_mod"},
            requires=["linewise-contracts>=1,<2"],
            modules={f"{adapter_type}_mod": source},
        )
    return Registry(entry_points=fake_site.entry_points())


def _texts(registry: Registry, adapter_type: str, *lines: str) -> list[Any]:
    session = open_session(adapter_type, registry=registry)
    entries = [e for line in lines for e in session.feed_line(line, TS)]
    entries.extend(session.close(TS))
    return [e.get("text") for e in entries]


# -- the rule ------------------------------------------------------------------------


def test_everything_but_a_real_ctrl_c_is_the_plugins_failure() -> None:
    for error in (ValueError(), SystemExit(3), GeneratorExit(), MemoryError(), ImportError()):
        assert is_plugin_failure(error)

    class Sneaky(KeyboardInterrupt):
        pass

    assert is_plugin_failure(Sneaky())
    assert not is_plugin_failure(KeyboardInterrupt())
    # At import, even a KeyboardInterrupt is the plugin's: it cannot be told from a Ctrl-C.
    assert is_import_failure(KeyboardInterrupt())


def test_describing_an_exception_whose_message_raises() -> None:
    class Hostile(Exception):
        def __str__(self) -> str:
            raise SystemExit("no")

    assert describe(Hostile()) == "Hostile: <message could not be shown>"
    assert describe(SystemExit(3)) == "SystemExit: 3"
    assert describe(ValueError("x" * 10_000)).endswith("x…")


@pytest.mark.parametrize(
    ("value", "score", "failed"),
    [
        (0.5, 0.5, False),
        (1, 1.0, False),
        (1.5, 1.0, False),
        (-2, 0.0, False),
        (10**400, 0.0, True),
        (float("nan"), 0.0, True),
        (float("inf"), 0.0, True),
        ("0.9", 0.0, True),
        (True, 0.0, True),
        (None, 0.0, True),
    ],
)
def test_a_sniff_result_is_a_finite_score_from_0_to_1_or_a_failure(
    value: object, score: float, failed: bool
) -> None:
    got, problem = sniff_score(value)
    assert got == score
    assert (problem is not None) is failed


# -- loading -------------------------------------------------------------------------

LAZY = (
    PARSE
    + """
import importlib
def __getattr__(name):
    # The common lazy-import pattern, with the common bug: ImportError, not AttributeError.
    return importlib.import_module(f"{__name__}_{name}")
"""
)

LOAD_ATTACKS = {
    "factory_exits": "import sys\ndef create_stdout_parser():\n    sys.exit(3)\n",
    "generator_exit_at_import": "raise GeneratorExit('closing')\n",
    "ctrl_c_at_import": "raise KeyboardInterrupt\n",
    "exits_at_import": "import sys\nsys.exit('bye')\n",
    "raising_signature": """
class Parse:
    @property
    def __signature__(self):
        raise SystemExit('no signature')
    def __call__(self, line, ts):
        return []
parse_stdout_line = Parse()
""",
    "base_exception_at_import": "class Weird(BaseException):\n    pass\nraise Weird('odd')\n",
}


@pytest.mark.parametrize(
    ("adapter_type", "reason"),
    [
        ("factory_exits", "create_stdout_parser() raised SystemExit: 3"),
        ("generator_exit_at_import", "raised at import: GeneratorExit: closing"),
        (
            "ctrl_c_at_import",
            "raised at import: KeyboardInterrupt: (if you pressed Ctrl-C, run the command again)",
        ),
        ("exits_at_import", "called sys.exit('bye') at import"),
        ("raising_signature", "checking the exports raised SystemExit: no signature"),
        ("base_exception_at_import", "raised at import: Weird: odd"),
    ],
)
def test_a_plugin_that_breaks_while_loading_is_a_failed_load(
    fake_site: FakeSite, adapter_type: str, reason: str
) -> None:
    registry = _site(fake_site, **{adapter_type: LOAD_ATTACKS[adapter_type]})
    loaded = registry.load(adapter_type)
    assert loaded.is_fallback
    assert registry.failed_loads[adapter_type].reason == reason
    assert _texts(registry, adapter_type, "hello") == ["hello"]
    (info,) = (i for i in registry.parsers() if i.adapter_type == adapter_type)
    assert info.status.value == "failed" and info.reason == reason


def test_a_lazy_module_getattr_raising_import_error_still_serves(
    fake_site: FakeSite, caplog: pytest.LogCaptureFixture
) -> None:
    registry = _site(fake_site, lazy=LAZY)
    with caplog.at_level(logging.WARNING, logger="linewise"):
        loaded = registry.load("lazy")
    assert not loaded.is_fallback
    assert loaded.sniff is None and loaded.summarize_run is None and loaded.label is None
    assert _texts(registry, "lazy", "hello") == ["hello"]
    info = registry.info("lazy")
    assert info.status.value == "loaded"
    (problem,) = info.problems  # one record for every lookup that raised
    assert "looking up 'create_stdout_parser' raised ModuleNotFoundError" in problem
    assert "so did looking up 'sniff', 'summarize_run'" in problem and "'label'" in problem
    assert caplog.text.count("lazy: exports") == 1


def test_metadata_that_raises_or_lies_is_left_out(fake_site: FakeSite) -> None:
    source = (
        PARSE
        + """
class Label(str):
    def strip(self):
        raise SystemExit('strip')
label = Label('sneaky')
models = [{'id': 'm1', 'label': 'ok'}, {'id': 5}, 'm2']
class Doc:
    def __str__(self):
        raise SystemExit('doc')
agent_configuration_doc = Doc()
"""
    )
    registry = _site(fake_site, odd=source)
    loaded = registry.load("odd")
    assert not loaded.is_fallback
    assert loaded.label is None  # no Summary to stand in either
    assert loaded.models == ({"id": "m1", "label": "ok"},)
    assert loaded.agent_configuration_doc is None


def test_an_object_entry_point_whose_label_raises(fake_site: FakeSite) -> None:
    source = """
class Plugin:
    @property
    def label(self):
        raise GeneratorExit('label')
    def parse_stdout_line(self, line, ts):
        return [{'kind': 'assistant', 'ts': ts, 'text': line}]
PLUGIN = Plugin()
"""
    fake_site.add(
        "objecty",
        entry_points={"objecty": "objecty_mod:PLUGIN"},
        modules={"objecty_mod": source},
        summary="Objecty parser",
    )
    registry = Registry(entry_points=fake_site.entry_points())
    loaded = registry.load("objecty")
    assert not loaded.is_fallback and loaded.label == "Objecty parser"
    assert any("GeneratorExit: label" in p for p in registry.info("objecty").problems)


# -- calls ---------------------------------------------------------------------------

SNIFFERS = {
    "good": PARSE + "def sniff(lines):\n    return 0.9 if lines and lines[0] == 'GOOD' else 0.0\n",
    "huge": PARSE + "def sniff(lines):\n    return 10**400\n",
    "nan": PARSE + "def sniff(lines):\n    return float('nan')\n",
    "wordy": PARSE + "def sniff(lines):\n    return 'sure'\n",
    "exits": PARSE + "import sys\ndef sniff(lines):\n    sys.exit(1)\n",
    "closes": PARSE + "def sniff(lines):\n    raise GeneratorExit\n",
    "mutates": PARSE + "def sniff(lines):\n    lines.clear()\n    return 0.0\n",
}


def test_broken_sniffers_take_no_part_and_the_good_one_is_detected(
    fake_site: FakeSite, caplog: pytest.LogCaptureFixture
) -> None:
    registry = _site(fake_site, **SNIFFERS)
    with caplog.at_level(logging.WARNING, logger="linewise"):
        detection = detect_adapter(["GOOD", "x"], registry=registry)
    assert detection.adapter_type == "good", detection.reason
    assert set(detection.scores) == {"good", "mutates"}
    for name in ("huge", "nan", "wordy", "exits", "closes"):
        assert registry.info(name).problems, name
    assert "huge: sniff returned a number that is not a float" in caplog.text
    assert "exits: sniff raised SystemExit: 1" in caplog.text


def test_summarize_run_raising_generator_exit_is_a_reason_not_a_crash(
    fake_site: FakeSite,
) -> None:
    source = PARSE + "def summarize_run(lines):\n    raise GeneratorExit('gone')\n"
    registry = _site(fake_site, summ=source)
    summary, reason = plugin_summary(registry.load("summ"), iter(["a"]))
    assert summary is None
    assert reason is not None and "GeneratorExit: gone" in reason


def test_check_environment_is_handed_out_guarded(fake_site: FakeSite) -> None:
    source = PARSE + "import sys\ndef check_environment(environ=None):\n    sys.exit(2)\n"
    loaded = _site(fake_site, env=source).load("env")
    assert loaded.check_environment is not None
    with pytest.raises(PluginCallError, match="SystemExit: 2"):
        loaded.check_environment()


def test_format_stdout_line_failures_show_the_line_plain(fake_site: FakeSite) -> None:
    source = (
        PARSE
        + """
def format_stdout_line(line):
    if line == 'exit':
        raise SystemExit(1)
    if line == 'bad':
        return [('shouting', line)]
    if line == 'dict':
        return {'role': 'tool'}
    return [('tool', '$ ' + line), ['result', 'ok']]
"""
    )
    registry = _site(fake_site, fmt=source)
    loaded = registry.load("fmt")
    assert loaded.format_stdout_line is not None
    assert loaded.format_stdout_line("ls") == [("tool", "$ ls"), ("result", "ok")]
    for line in ("exit", "bad", "dict"):
        assert loaded.format_stdout_line(line) == [("plain", line)]
    assert len(registry.info("fmt").problems) == 3


def test_a_plugin_without_a_formatter_has_none(fake_site: FakeSite) -> None:
    loaded = _site(fake_site, plain=PARSE).load("plain")
    assert loaded.format_stdout_line is None and loaded.sniff is None


STATEFUL_ATTACKS = """
import sys

class Parser:
    def parse_line(self, line, ts):
        if line == 'boom':
            raise ValueError('boom')
        return [{'kind': 'assistant', 'ts': ts, 'text': line}]
    def reset(self):
        sys.exit('reset refuses')
    def finish(self, ts):
        raise GeneratorExit('finish refuses')

def create_stdout_parser():
    return Parser()
"""


def test_reset_and_finish_that_exit_never_stop_the_session(fake_site: FakeSite) -> None:
    registry = _site(fake_site, stateful=STATEFUL_ATTACKS)
    session = open_session("stateful", registry=registry)
    texts = [e.get("text") for line in ("a", "boom", "b") for e in session.feed_line(line, TS)]
    session.close(TS)
    assert texts == ["a", "boom", "b"]
    assert session.diagnostics.parser_errors == 2  # the line, and finish() at the end
    assert session.diagnostics.parser_restarts == 1  # reset() failed: a fresh parser


def test_a_factory_that_exits_later_falls_back_for_that_transcript(fake_site: FakeSite) -> None:
    source = """
import sys
calls = []
class Parser:
    def parse_line(self, line, ts):
        return [{'kind': 'assistant', 'ts': ts, 'text': 'p:' + line}]
    def reset(self):
        pass
def create_stdout_parser():
    calls.append(1)
    if len(calls) > 1:
        sys.exit(4)
    return Parser()
"""
    registry = _site(fake_site, flaky=source)
    assert not registry.load("flaky").is_fallback  # the load's probe got a parser
    session = open_session("flaky", registry=registry)
    assert [e.get("text") for e in session.feed_line("x", TS)] == ["x"]
    assert "SystemExit: 4" in (session.diagnostics.fallback_reason or "")


# -- threads -------------------------------------------------------------------------


def _in_threads(count: int, work: Any) -> tuple[list[Any], list[BaseException]]:
    """``work(n)`` in ``count`` threads released at once: the results and the exceptions."""
    barrier = threading.Barrier(count)
    results: list[Any] = []
    errors: list[BaseException] = []

    def run(n: int) -> None:
        barrier.wait()
        try:
            results.append(work(n))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors


def test_first_use_from_eight_threads_at_once(fake_site: FakeSite) -> None:
    plugins = {
        f"agent_{n}": PARSE + f"def sniff(lines):\n    return 0.95 if lines[0] == 'A{n}' else 0.0\n"
        for n in range(6)
    }
    _site(fake_site, **plugins)
    for _ in range(5):
        # A fresh registry each round: its first use is what races.
        registry = Registry(entry_points=fake_site.entry_points())
        results, errors = _in_threads(
            8, lambda n, r=registry: detect_adapter([f"A{n % 6}"], registry=r).adapter_type
        )
        assert errors == []
        assert sorted(results) == sorted(f"agent_{n % 6}" for n in range(8))


def test_build_transcript_auto_from_eight_threads_on_the_process_registry(
    fake_site: FakeSite,
) -> None:
    from linewise import build_transcript, reset_registry

    source = PARSE + "def sniff(lines):\n    return 0.99 if lines[0] == 'THREADED' else 0.0\n"
    _site(fake_site, threaded=source)
    chunk = {"ts": TS, "stream": "stdout", "chunk": "THREADED\nmore\n"}
    for _ in range(3):
        reset_registry()
        chosen, errors = _in_threads(8, lambda n: build_transcript([chunk], "auto").adapter_type)
        assert errors == []
        assert chosen == ["threaded"] * 8


def test_strict_mode_raises_the_guarded_failure_once(fake_site: FakeSite) -> None:
    from linewise import PluginLoadError

    _site(fake_site, factory_exits=LOAD_ATTACKS["factory_exits"])
    registry = Registry(entry_points=fake_site.entry_points(), strict=True)
    with pytest.raises(PluginLoadError, match=r"create_stdout_parser\(\) raised SystemExit: 3"):
        registry.load("factory_exits")
    assert registry.failed_loads["factory_exits"].stage == "exports"


def test_host_hook_names_register_once_and_host_app_names_keep_pluggys_rule() -> None:
    from linewise.plugins.hooks import HOST_PLUGIN_PREFIX, HookRelay

    class Observer:
        pass

    relay = HookRelay()
    first, second = Observer(), Observer()
    relay.register(first, HOST_PLUGIN_PREFIX + "sniff:x")
    relay.register(second, HOST_PLUGIN_PREFIX + "sniff:x")  # a racing thread's: a no-op
    assert relay.manager.get_plugin(HOST_PLUGIN_PREFIX + "sniff:x") is first
    mine, other = Observer(), Observer()
    relay.register(mine, "my-app")
    with pytest.raises(ValueError, match="already registered"):
        relay.register(other, "my-app")
