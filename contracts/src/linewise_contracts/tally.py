"""What a run's entries add up to: the shared core of a ``summarize_run`` built on entries.

A plugin whose CLI records no run summary of its own (a saved session, say)
can summarise a run by reading its own parser's entries, so the summary and
the transcript agree. :func:`tally_entries` does the reading; the plugin picks
from the :class:`EntryTally` what its CLI's records mean (contract 1.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from linewise_contracts.extract import as_int, parse_json_object
from linewise_contracts.protocols import StdoutParser
from linewise_contracts.summary import Usage
from linewise_contracts.usage import TokenUsage

__all__ = ["KEPT_ERRORS", "EntryTally", "tally_entries"]

#: How many ``stderr`` texts a tally keeps as the run's errors.
KEPT_ERRORS: Final = 20
_TS: Final = "1970-01-01T00:00:00.000Z"


@dataclass(slots=True)
class EntryTally:
    """A run's entries added up; the assistant's words and the turn state on the main thread only.

    ``session_id`` and ``model`` come from ``init`` entries (the last one naming
    them); ``usage``, ``costs`` and ``outcome`` (a ``subtype``) from ``result``
    entries; ``texts`` are the assistant's texts, streamed fragments joined;
    ``errors`` the first :data:`KEPT_ERRORS` ``stderr`` texts. ``token_usage``
    and ``model_usage`` (contract 1.3) add up what the plugin's ``usage_of``
    reads from each record, in the usage vocabulary. ``answered``:
    the last prompt or answer was the assistant's; ``prompted``: a prompt came
    after the last result.
    """

    session_id: str | None = None
    model: str | None = None
    usage: Usage = field(default_factory=Usage)
    token_usage: TokenUsage = field(default_factory=TokenUsage)
    model_usage: dict[str, TokenUsage] = field(default_factory=dict)
    costs: list[float] = field(default_factory=list)
    outcome: str | None = None
    texts: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    answered: bool = False
    prompted: bool = False
    _streaming: bool = False

    @property
    def final_text(self) -> str | None:
        """The last assistant text, trimmed; None when there was none."""
        return self.texts[-1].strip() if self.texts else None

    def add(self, entry: dict[str, Any]) -> None:
        """Count one entry."""
        kind = entry["kind"]
        main = "parentToolUseId" not in entry
        if kind == "init":
            self.session_id = entry["sessionId"] or self.session_id
            self.model = entry["model"] or self.model
        elif kind == "result":
            self.usage += Usage(
                input_tokens=as_int(entry["inputTokens"]),
                output_tokens=as_int(entry["outputTokens"]),
                cached_tokens=as_int(entry["cachedTokens"]),
            )
            self.costs.append(float(entry["costUsd"]))
            self.outcome = entry["subtype"] or self.outcome
        elif kind == "assistant" and main:
            if entry.get("delta") is True and self._streaming:
                self.texts[-1] += entry["text"]
            else:
                self.texts.append(entry["text"])
        elif kind == "stderr" and len(self.errors) < KEPT_ERRORS:
            self.errors.append(entry["text"])
        if kind in ("user", "assistant") and main:
            self.answered = kind == "assistant"
        if kind in ("user", "result") and main:
            self.prompted = kind == "user"
        self._streaming = self.texts != [] and kind == "assistant" and entry.get("delta") is True


def tally_entries(
    lines: Iterable[str],
    parser: StdoutParser,
    model_of: Callable[[dict[str, Any]], str] | None = None,
    usage_of: Callable[[dict[str, Any]], TokenUsage | None] | None = None,
) -> EntryTally:
    """Every non-blank line through ``parser``, its entries added up.

    ``model_of`` names the model a JSON record mentions: it stands in when no
    ``init`` entry names one (the first record that names a model).
    ``usage_of`` (contract 1.3) reads a JSON record's tokens in the usage
    vocabulary (None for a record without any): they add up to
    ``token_usage``, and per model (the record's ``model_of``, else the
    session's model so far) to ``model_usage``.
    """
    tally = EntryTally()
    named: str | None = None
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        wants_model = model_of is not None and named is None and tally.model is None
        record = parse_json_object(line) if wants_model or usage_of is not None else None
        if record is not None and wants_model and model_of is not None:
            named = model_of(record) or None
        if record is not None and usage_of is not None:
            _add_usage(tally, record, usage_of(record), model_of, named)
        for entry in parser.parse_line(line, _TS):
            tally.add(entry)  # type: ignore[arg-type]
    tally.model = tally.model or named
    return tally


def _add_usage(
    tally: EntryTally,
    record: dict[str, Any],
    tokens: TokenUsage | None,
    model_of: Callable[[dict[str, Any]], str] | None,
    named: str | None,
) -> None:
    if tokens is None or tokens.is_empty:
        return
    tally.token_usage += tokens
    model = (model_of(record) if model_of is not None else "") or tally.model or named
    if model:
        tally.model_usage[model] = tally.model_usage.get(model, TokenUsage()) + tokens
