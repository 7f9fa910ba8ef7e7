"""The declared plugin object (contract 1.5): made once, checked when made, frozen, lazy."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import pytest
from linewise_contracts.agent import Agent, Format, UnresolvedReference, format_problem
from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.sniffing import SURE, SURE_WITH_TEXT, score_json_events, type_sniffer


def parse(line: str, ts: str) -> list[TranscriptEntry]:
    return [{"kind": "stdout", "ts": ts, "text": line}]


def _agent(**fields: Any) -> Agent:
    formats = fields.pop("formats", None) or [Format("demo_local", parse_stdout_line=parse)]
    return Agent("demo", label="Demo", formats=formats, **fields)


def test_an_agent_names_its_formats_and_each_format_answers_with_the_agents_metadata() -> None:
    local = Format("demo_local", label="Demo (local)", parse_stdout_line=parse)
    session = Format("demo_session", parse_stdout_line=parse, agent_configuration_doc="# s")
    agent = _agent(
        formats=[local, session],
        models=[{"id": "m1", "label": "M 1"}],
        agent_configuration_doc="# demo",
    )
    assert agent.adapter_types == ("demo_local", "demo_session")
    assert agent.demo_session is session and agent.format("demo_local") is local
    assert local.agent is agent
    assert (local.label, local.agent_configuration_doc) == ("Demo (local)", "# demo")
    assert (session.label, session.agent_configuration_doc) == ("Demo", "# s")
    assert local.models == [{"id": "m1", "label": "M 1"}]
    assert local.parse_stdout_line is parse and local.create_stdout_parser is None
    with pytest.raises(KeyError, match="has no format 'demo_other' \\(it has demo_local"):
        agent.format("demo_other")
    with pytest.raises(AttributeError):
        agent.demo_other  # noqa: B018 - an unknown name is an AttributeError, as getattr wants


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Format("Demo", parse_stdout_line=parse), ValueError, "not snake_case"),
        (lambda: Format("label", parse_stdout_line=parse), ValueError, "name of an Agent field"),
        (lambda: Format("demo_local"), TypeError, "give create_stdout_parser or parse_stdout_line"),
        (
            lambda: Format("demo_local", parse_stdout_line=parse, sniff=3),
            TypeError,
            r"Format\('demo_local'\): sniff must be a callable or a 'module:attribute' str, not int",
        ),
        (
            lambda: Format("demo_local", parse_stdout_line="no_colon"),
            ValueError,
            "parse_stdout_line reference 'no_colon' is not 'module:attribute'",
        ),
        (
            lambda: Format("demo_local", parse_stdout_line=parse, label="  "),
            ValueError,
            r"Format\('demo_local'\): label is blank",
        ),
        (lambda: Agent("Demo CLI", label="D", formats=[]), ValueError, "is not lowercase words"),
        (
            lambda: Agent(
                "demo", label=None, formats=[Format("demo_local", parse_stdout_line=parse)]
            ),  # type: ignore[arg-type]
            TypeError,
            r"Agent\('demo'\): label is required",
        ),
        (
            lambda: Agent("demo", label="D", formats=[]),
            ValueError,
            "formats is empty",
        ),
        (
            lambda: _agent(formats=[parse]),
            TypeError,
            r"formats\[0\] is a function, not a Format",
        ),
        (
            lambda: _agent(
                formats=[
                    Format("demo_local", parse_stdout_line=parse),
                    Format("demo_local", parse_stdout_line=parse),
                ]
            ),
            ValueError,
            r"formats\[1\] repeats adapter type 'demo_local'",
        ),
        (
            lambda: _agent(models=[{"id": "m1"}]),
            TypeError,
            r"models\[0\] must be a dict with exactly the keys 'id' and 'label'",
        ),
        (
            lambda: _agent(models="m1"),
            TypeError,
            "models must be a list",
        ),
        (
            lambda: Format("demo_local", parse_stdout_line=parse, models=[{"id": "m1"}]),
            TypeError,
            r"Format\('demo_local'\): models\[0\] must be a dict with exactly the keys",
        ),
        (
            lambda: Format(
                "demo_local",
                parse_stdout_line=parse,
                models=[{"id": "m1", "label": "M"}, {"id": "m1", "label": "M again"}],
            ),
            ValueError,
            r"Format\('demo_local'\): models\[1\] repeats the id 'm1'",
        ),
    ],
)
def test_a_wrong_field_is_refused_when_the_object_is_made_naming_the_field(
    make: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()


def test_a_format_with_models_of_its_own_answers_with_them_and_not_the_agents() -> None:
    cloud = Format("demo_cloud", parse_stdout_line=parse, models=[{"id": "c1", "label": "C 1"}])
    stated_none = Format("demo_remote", parse_stdout_line=parse, models=())
    local = Format("demo_local", parse_stdout_line=parse)
    _agent(formats=[local, cloud, stated_none], models=[{"id": "m1", "label": "M 1"}])
    assert cloud.models == [{"id": "c1", "label": "C 1"}]
    assert stated_none.models == []  # states none: not the agent's
    assert local.models == [{"id": "m1", "label": "M 1"}]
    cloud.models.clear()  # a copy, as the 1.x export was: the declaration stays
    assert cloud.models == [{"id": "c1", "label": "C 1"}]


def test_a_format_belongs_to_one_agent_only() -> None:
    shared = Format("demo_local", parse_stdout_line=parse)
    Agent("one", label="One", formats=[shared])
    with pytest.raises(ValueError, match=r"already belongs to Agent\('one'\)"):
        Agent("two", label="Two", formats=[shared])


def test_both_objects_are_frozen() -> None:
    agent = _agent()
    with pytest.raises(AttributeError, match="frozen"):
        agent.label = "Other"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="frozen"):
        agent.formats[0].adapter_type = "other"  # type: ignore[misc]


def test_a_reference_is_imported_when_first_read_and_a_broken_one_says_which(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "lazy_demo_mod.py").write_text(
        "def sniff(lines):\n    return 0.5\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    fmt = Format(
        "demo_local",
        parse_stdout_line=parse,
        sniff="lazy_demo_mod:sniff",
        summarize_run="lazy_demo_mod:missing",
    )
    _agent(formats=[fmt])
    assert "lazy_demo_mod" not in sys.modules
    assert fmt.references() == {
        "sniff": "lazy_demo_mod:sniff",
        "summarize_run": "lazy_demo_mod:missing",
    }
    assert fmt.sniff is not None and fmt.sniff(["x"]) == 0.5
    with pytest.raises(
        UnresolvedReference, match="summarize_run reference 'lazy_demo_mod:missing'"
    ):
        fmt.resolve()


def test_format_problem_accepts_only_the_format_its_entry_point_names() -> None:
    agent = _agent()
    assert format_problem(agent.demo_local, "demo_local") is None
    assert format_problem(object(), "demo_local") is None  # not a declared object: 1.x rules
    whole = format_problem(agent, "demo_local")
    assert whole is not None and "not one of its formats" in whole[0]
    other = format_problem(agent.demo_local, "demo_session")
    assert other is not None and "names Format('demo_local')" in other[0]
    loose = Format("demo_loose", parse_stdout_line=parse)
    lonely = format_problem(loose, "demo_loose")
    assert lonely is not None and "belongs to no Agent" in lonely[0]


def _verdict(event: dict[str, Any]) -> bool | None:
    kind = event.get("type")
    return True if kind == "mine" else (None if kind == "init" else False)


@pytest.mark.parametrize(
    ("lines", "score"),
    [
        (['{"type": "init"}', '{"type": "mine"}'], SURE),
        (['{"type": "mine"}', "a note", '{"type": "init"}'], SURE_WITH_TEXT),
        (['{"type": "init"}'], 0.0),  # nothing only this CLI writes
        (['{"type": "mine"}', '{"type": "theirs"}'], 0.0),  # another CLI's event
        (['{"type": "mine"}', "text", "more text"], 0.0),  # text outnumbers events
        ([], 0.0),
    ],
)
def test_the_shared_json_events_sniff_scores_as_the_plugins_did(
    lines: Sequence[str], score: float
) -> None:
    assert score_json_events(lines, _verdict) == score
    assert type_sniffer({"mine"}, {"init"})(lines) == score


def test_a_type_sniffer_needs_a_type_of_its_own() -> None:
    with pytest.raises(ValueError, match="at least one event type"):
        type_sniffer((), {"init"})
