"""Sniffing helpers (contract 1.5): the JSON-events sniff most plugins wrote again.

Most agent CLIs print one JSON event per line with a ``type`` field, and their
plugins' ``sniff`` functions were the same loop: read each line as a JSON
object, refuse the lines at once when one event is another CLI's, count the
events only this CLI writes, tolerate plain text lines while events outnumber
them, and answer 0.95 (0.85 with some text lines) when one event was the
CLI's own. :func:`score_json_events` is that loop with the plugin's own
judgement of one event; :func:`type_sniffer` builds the whole sniff for the
common case of a set of event types. :func:`first_record_score` (contract 1.8)
is the sniff of a session file whose first record names its store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from linewise_contracts.extract import parse_json_object

__all__ = ["SURE", "SURE_WITH_TEXT", "first_record_score", "score_json_events", "type_sniffer"]

#: The score when every non-blank line was an event and one was the CLI's own.
SURE: Final = 0.95
#: The score when some lines were plain text (fewer than the events).
SURE_WITH_TEXT: Final = 0.85

#: One event judged: True when only this CLI writes it, None when others do too
#: (an ``init``, an ``error``), False when it is another CLI's (the lines are not ours).
Verdict = Callable[[dict[str, Any]], "bool | None"]


def score_json_events(lines: Sequence[str], verdict: Verdict) -> float:
    """0 to 1: how surely ``lines`` are this CLI's JSON events, ``verdict`` judging each.

    0 as soon as one event is another CLI's (``verdict`` False), when no event
    is the CLI's own, or when plain text lines outnumber the events; else
    :data:`SURE`, or :data:`SURE_WITH_TEXT` when some lines were text.
    """
    own = events = other = 0
    for line in lines:
        event = parse_json_object(line)
        if event is None:
            other += line.strip() != ""
            continue
        judged = verdict(event)
        if judged is False:
            return 0.0
        events += 1
        own += judged is True
    if not own or other > events:
        return 0.0
    return SURE if other == 0 else SURE_WITH_TEXT


def type_sniffer(
    own: Iterable[str], shared: Iterable[str] = (), *, field: str = "type"
) -> Callable[[Sequence[str]], float]:
    """A ``sniff`` for a CLI whose events say their type in ``field``.

    An event whose type is in ``own`` is the CLI's own; in ``shared``, written
    by other CLIs too (tolerated, not counted); any other type, or an event
    without a string type, is another CLI's. Scored by :func:`score_json_events`.
    """
    mine = frozenset(own)
    common = frozenset(shared) - mine
    if not mine:
        raise ValueError("type_sniffer needs at least one event type only this CLI writes")

    def verdict(event: dict[str, Any]) -> bool | None:
        kind = event.get(field)
        if type(kind) is not str:
            return False
        if kind in mine:
            return True
        return None if kind in common else False

    def sniff(lines: Sequence[str]) -> float:
        return score_json_events(lines, verdict)

    sniff.__doc__ = (
        f"0 to 1: how surely these lines are events whose {field!r} is one of the CLI's."
    )
    return sniff


def first_record_score(lines: Sequence[str], record_type: str) -> float:
    """0 to 1 (contract 1.8): :data:`SURE` when the first JSON object among ``lines`` has
    ``"type": record_type``, else 0; a non-blank line that is no JSON object before it
    answers 0. The sniff of a session file that a plugin's ``session_records`` starts with
    a record of its own (the store's, so no other CLI writes it)."""
    for line in lines:
        record = parse_json_object(line)
        if record is not None:
            return SURE if record.get("type") == record_type else 0.0
        if line.strip():
            return 0.0
    return 0.0
