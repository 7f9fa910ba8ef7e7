"""The one fold over a run's entries: every run summary, total and outcome starts here.

:class:`RunFold` is fed validated entries one at a time (the stream pipeline
feeds it as entries are made, see ``Pipeline(fold=...)``) and keeps, in
constant memory, what views and reports need: counts per kind, tool calls
and their failures, subagents started, the session and the model (an init's
or a result's, contract 1.10), the times, the
tokens both in the wire format's three counts (:class:`Usage`, for 1.x
views) and in the one usage vocabulary (:class:`TokenUsage`, where entries
carry it, contract 1.5), per model and the turns (contract 1.9), the cost
with its source, and how the run ended.

What entries say comes first: :meth:`RunFold.summary` takes a plugin's
``summarize_run`` result only for what entries do not carry (details,
``unknown_session``, the tokens of a session cut off before its result, a
CLI's own outcome word), see :func:`merged`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final, cast

from linewise_contracts.entries import UNKNOWN_MODEL, TranscriptEntry, model_name
from linewise_contracts.outcomes import is_outcome
from linewise_contracts.summary import RunSummary, Usage
from linewise_contracts.usage import TokenUsage

from linewise.stream.stats import EntryFold

__all__ = [
    "MAX_TOKENS",
    "SUBAGENT_TOOLS",
    "RunFold",
    "TranscriptStats",
    "entries_summary",
    "finite",
    "merged",
    "run_fold",
    "starts_subagent",
    "subagent_start",
]

#: Most tokens a summary believes one run used; beyond it a count is nonsense.
MAX_TOKENS: Final = 10**15
_KEPT_ERRORS: Final = 20
#: The fragments of no streamed answer (shared, never appended to: a fragment starts a list).
_NO_FRAGMENTS: Final[list[str]] = []
#: A run_terminal's run state -> the outcome word (linewise_contracts.outcomes).
_RUN_OUTCOMES: Final = {"succeeded": "completed", "failed": "failed", "cancelled": "interrupted"}
#: Tool names that start a subagent (Claude's Task/Agent, Codex's spawn_agent, OpenCode's
#: task): only the fallback for a call without ``startsSubagent`` (contract 1.5), which
#: plugins older than 1.5 do not write; a call that carries the marker is read by it.
SUBAGENT_TOOLS: Final = frozenset({"Task", "Agent", "spawn_agent", "task"})


def starts_subagent(entry: Mapping[str, Any]) -> bool:
    """True when a tool call entry starts a subagent (see :func:`subagent_start`)."""
    return subagent_start(entry.get("startsSubagent"), entry.get("name"))


def subagent_start(marker: object, name: object) -> bool:
    """The one rule: a call's ``startsSubagent`` (contract 1.5) decides when given; a call
    without it (an older plugin's) starts one when its tool name is one that does."""
    if marker is not None:
        return marker is True
    return name in SUBAGENT_TOOLS


class RunFold(EntryFold):
    """What a run's entries add up to, counted entry by entry (memory grows with sessions only).

    ``cost_usd`` adds the costs the results report: a contract 1.5 result
    says where its ``costUsd`` came from (``costSource``: ``reported``,
    ``estimated``, or null: no cost known); an older one is counted when its
    ``costUsd`` is above 0 (the wire format writes 0 for "not reported").
    ``token_usage`` adds the results' ``usage`` (contract 1.5, the usage
    vocabulary); it stays unknown when no result carried one. A 1.5 result
    naming its ``sessionId`` carries that session's usage and cost so far
    (what Claude's and Codex's results report): the latest result of each
    session counts, and sessions add up. A run where some results report a
    cost and others say none (``costSource`` null: a loose result, or every
    result of a session) has a partial sum there (``cost_partial``): its
    summary's cost is unknown, never a part stated as the whole.

    A plain class, not a dataclass: made for every run, imported by every command (a
    dataclass of 30 fields costs start-up to generate), and never compared or copied.
    """

    def __init__(self) -> None:
        self.entries: int = 0
        #: ``stdout`` entries: lines the parser did not recognise, shown raw.
        self.raw_lines: int = 0
        self.tool_calls: int = 0
        self.tool_errors: int = 0
        self.subagent_calls: int = 0
        self.results: int = 0
        #: The results' ``turns`` added up (contract 1.9); None when no result gave them.
        self.turns: int | None = None
        self.session_id: str | None = None
        self.model: str | None = None
        self.usage: Usage = Usage()
        # The sum of the sessions' latest usage, made when read (see token_usage): summed
        # at every result, a log of many sessions cost O(sessions) a result.
        self._token_usage: TokenUsage | None = TokenUsage()
        self.cost_usd: float | None = None
        #: ``reported``, ``estimated`` or ``mixed``: where the results' costs came from.
        self.cost_source: str | None = None
        self.errors: list[str] = []
        self.error_count: int = 0
        #: A result said where its cost came from (contract 1.5 ``costSource``, null included).
        self.cost_said: bool = False
        #: The session a result names (contract 1.5 ``sessionId``).
        self.result_session_id: str | None = None
        #: The model a result names (contract 1.10 ``model``): the run's, as the latest init's.
        self.result_model: str | None = None
        #: The last result's ``subtype`` (the CLI's own word) and its 1.5 ``outcome``.
        self.outcome: str | None = None
        self.result_outcome: str | None = None
        self.is_error: bool = False
        # The last result's text, a run_result's summary, the last main-thread answer: the
        # final text is the first of them a finished run has, the answer for a cut-off one.
        self.result_text: str | None = None
        # The last main-thread answer that came whole (its text read only when asked).
        self._last_answer: dict[str, Any] | None = None
        # The fragments (``delta``) of the last answer when it was streamed, joined when read
        # (empty when a whole answer came after them); _streaming: the entries since its
        # first fragment are its fragments only.
        self._fragments: list[str] = _NO_FRAGMENTS
        self._streaming: bool = False
        self.started: bool = False
        # An init (a new session) after the last result: that session has no result yet.
        self.open_session: bool = False
        #: Contract 1.3: the last run_terminal's states and the disposition the run reported.
        self.run_state: str | None = None
        self.turn_state: str | None = None
        self.disposition: str | None = None
        self.stop_reason: str | None = None
        # Contract 1.5: each session's latest usage and cost (results carry their session's so
        # far); the usage as the entry gave it (validated), made a TokenUsage only when
        # token_usage is read, so a result costs a dict store, not a dataclass.
        self._session_tokens: dict[str, dict[str, Any]] = {}
        self._session_costs: dict[str, float] = {}
        # Contract 1.5 results that said they have no cost (costSource null): those naming
        # no session, counted, and the sessions named (known when a later result costs).
        self._uncosted_loose: int = 0
        self._uncosted_sessions: set[str] = set()
        self._loose_tokens: TokenUsage = TokenUsage()
        # Contract 1.9: each session's latest modelUsage (as given), and those of results
        # that name no session, added up per model.
        self._session_models: dict[str, dict[str, Any]] = {}
        self._loose_models: dict[str, TokenUsage] = {}

    def add(self, entry: Mapping[str, Any]) -> None:
        """Count one (validated) entry."""
        self.add_all([cast("TranscriptEntry", entry if type(entry) is dict else dict(entry))])

    def add_all(self, entries: list[TranscriptEntry], /) -> None:
        """Count a line's (validated) entries, in order: what the stream pipeline calls.

        One call a line, the loop inside (every line goes through it): each entry is read as
        a dict and its kind as a str, so compiled (mypyc) code uses their own operations.
        """
        for item in entries:
            entry = cast("dict[str, Any]", item)
            self.entries += 1
            kind: str = entry["kind"]
            if kind == "assistant":
                if self.results:  # a new turn after a result: until its own result, cut off
                    self.open_session = True
                if entry.get("parentToolUseId") is None:
                    if entry.get("delta") is True:
                        self._fragment(entry["text"])
                    else:  # the text is read when asked: a line's cost is two lookups
                        self._last_answer = entry
                        self._fragments = _NO_FRAGMENTS
                        self._streaming = False
            elif kind == "tool_call":
                self._streaming = False
                self.tool_calls += 1
                if self.results:
                    self.open_session = True
                if subagent_start(entry.get("startsSubagent"), entry.get("name")):
                    self.subagent_calls += 1
            elif kind == "tool_result":
                self._streaming = False
                self.tool_errors += entry["isError"] is True
            elif kind == "init":
                self.session_id = entry["sessionId"] or self.session_id
                model: str = entry["model"]
                if model and model != UNKNOWN_MODEL:  # "unknown": the CLI named none
                    self.model = model
                self.started = True
                self.open_session = True
            elif kind == "result":
                self._streaming = False
                _add_result(self, entry)
            elif kind == "stdout":
                self.raw_lines += 1
            elif kind == "run_result":
                self.result_text = entry["summary"] or self.result_text
                self.disposition = entry["disposition"]
            elif kind == "run_terminal":
                self.run_state = entry["runState"]
                self.turn_state = entry["turnState"]
                self.disposition = entry["disposition"]
                self.stop_reason = entry.get("stopReason")
                self.open_session = False

    @property
    def token_usage(self) -> TokenUsage:
        """The results' usage in the usage vocabulary (contract 1.5): each session's latest,
        added up, with the results that name no session; unknown when none carried one."""
        total = self._token_usage
        if total is None:
            latest = (TokenUsage.from_json(usage) for usage in self._session_tokens.values())
            total = self._token_usage = sum(latest, self._loose_tokens)
        return total

    @property
    def model_usage(self) -> dict[str, TokenUsage]:
        """The results' ``modelUsage`` (contract 1.9) per model: each session's latest, added
        up, with the results that name no session; empty when no result carried one."""
        totals = dict(self._loose_models)
        for models in self._session_models.values():
            _add_models(totals, models)
        return totals

    def _fragment(self, text: str) -> None:
        """A fragment of a main-thread answer streamed (``delta``)."""
        if not self._streaming:
            self._fragments = []
            self._streaming = True
        self._fragments.append(text)

    @property
    def last_text(self) -> str | None:
        """The last main-thread answer: the last whole one, or the fragments of the last one
        streamed after it, joined; None when it has no text but blanks."""
        if self._fragments:
            joined = "".join(self._fragments)
            if joined and not joined.isspace():
                return joined
        answer = self._last_answer
        if answer is None:
            return None
        text: str = answer["text"]
        return text if text and not text.isspace() else None

    @property
    def final_text(self) -> str | None:
        """The run's final answer: a finished run's last result text (or run_result summary,
        or else its last main-thread answer); a cut-off run's last main-thread answer."""
        if self.open_session:
            return self.last_text or self.result_text
        return self.result_text or self.last_text

    @property
    def tokens_known(self) -> bool:
        """Whether any result reported a token count (in either form)."""
        return self.token_usage.known or self.usage != Usage()

    @property
    def cost_partial(self) -> bool:
        """Whether ``cost_usd`` adds up only some of the run's costs: other results said
        they have none (a loose result, or a session none of whose results gave one)."""
        if self.cost_usd is None:
            return False
        return self._uncosted_loose > 0 or any(
            session not in self._session_costs for session in self._uncosted_sessions
        )

    @property
    def run_cost(self) -> float | None:
        """The run's cost as the results report it: None when unknown or only in part."""
        return None if self.cost_partial else self.cost_usd

    @property
    def complete(self) -> bool | None:
        """True when the last session ended with a result that does not say the run was cut
        off there (outcome ``cut_off``); None when the transcript cannot tell."""
        if not (self.started or self.results):
            return None
        return self.results > 0 and not self.open_session and self.result_outcome != "cut_off"

    def to_summary(self) -> RunSummary:
        """The run summary the entries alone give (see :func:`entries_summary`)."""
        return entries_summary(self)

    def summary(self, plugin: RunSummary | None) -> RunSummary:
        """The run's summary: the entries' figures, a plugin's ``summarize_run`` for the rest."""
        if plugin is None:
            return self.to_summary()
        return merged(self, plugin)


def _add_result(fold: RunFold, entry: dict[str, Any]) -> None:
    """Count one result entry into ``fold`` (its figures, cost, outcome and errors)."""
    fold.results += 1
    fold.open_session = False
    fold.usage += Usage(
        input_tokens=_tokens(entry["inputTokens"]),
        output_tokens=_tokens(entry["outputTokens"]),
        cached_tokens=_tokens(entry["cachedTokens"]),
    )
    said = entry.get("sessionId") or None
    if said:
        fold.session_id = fold.result_session_id = said
    model = model_name(entry.get("model"))
    if model is not None:
        fold.model = fold.result_model = model
    tokens = entry.get("usage")
    if tokens is not None:
        if said is None:  # no session named: a result's own figures, added up
            fold._loose_tokens += TokenUsage.from_json(tokens)
        else:
            fold._session_tokens[said] = dict(tokens)
        fold._token_usage = None
    models = entry.get("modelUsage")
    if models is not None:
        if said is None:
            _add_models(fold._loose_models, models)
        else:
            fold._session_models[said] = dict(models)
    turns = entry.get("turns")
    if turns is not None:
        fold.turns = min((fold.turns or 0) + int(turns), MAX_TOKENS)
    _add_cost(fold, entry, said)
    fold.outcome = entry["subtype"] or None
    fold.result_outcome = entry.get("outcome")
    fold.is_error = entry["isError"] is True
    text: str = entry["text"]
    if text and text != entry["subtype"]:
        # A result whose text is its own stop word (OpenCode's "stop", as the reference
        # writes it) carries no answer: the last main-thread answer is the final text.
        fold.result_text = text
    if fold.is_error:
        messages = list(entry["errors"]) or [entry["subtype"] or "error"]
        fold.error_count += len(messages)
        room = _KEPT_ERRORS - len(fold.errors)
        fold.errors.extend(messages[: max(room, 0)])


def _add_cost(fold: RunFold, entry: Mapping[str, Any], session: str | None) -> None:
    """Add a result's cost to ``fold`` (see :class:`RunFold` for what a cost means)."""
    cost = finite(entry["costUsd"])
    if "costSource" in entry:
        fold.cost_said = True
        source = entry["costSource"]
        if source is None:  # the CLI reported no cost: its costUsd is not one
            if session is None:
                fold._uncosted_loose += 1
            else:
                fold._uncosted_sessions.add(session)
            return
        if session is not None and cost is not None:
            # A 1.5 result's cost is its session's so far: the latest replaces the earlier.
            before = fold._session_costs.get(session, 0.0)
            fold._session_costs[session] = cost
            cost -= before
    else:
        source = "reported"
        if cost is not None and cost <= 0:
            return  # a 1.x result's 0 is "not reported", never a $0 run
    if cost is None:
        return
    total = cost if fold.cost_usd is None else fold.cost_usd + cost
    fold.cost_usd = total if math.isfinite(total) else None
    if fold.cost_source is None:
        fold.cost_source = source
    elif fold.cost_source != source:
        fold.cost_source = "mixed"


def entries_summary(fold: RunFold) -> RunSummary:
    """The run summary ``fold``'s entries alone give.

    A contract 1.5 result's ``outcome`` is the outcome (an older one's
    ``subtype``, the CLI's own word, stands in); a run of a CLI that writes
    results whose last session has none yet (an init, or a new turn's
    answer or tool call, after the last result) is ``cut_off`` and not
    complete (a session file with no result at all says nothing of how it
    ended: no outcome). A run that said its terminal state (contract 1.3's
    ``run_terminal``) and whose results give no outcome word is complete,
    its run state giving the outcome
    (succeeded: completed, cancelled: interrupted, failed: failed), with
    the states in ``details``. ``turns`` and ``model_usage`` are the
    results' (contract 1.9), unknown when none gave them.
    """
    common: dict[str, Any] = {
        "session_id": fold.session_id,
        "model": fold.model,
        "usage": fold.usage,
        "token_usage": fold.token_usage,
        "model_usage": fold.model_usage,
        "turns": fold.turns,
        "cost_usd": fold.run_cost,
        "cost_source": _summary_cost_source(fold.cost_source, fold.run_cost),
        "final_text": fold.final_text,
        "errors": tuple(fold.errors),
    }
    if fold.results and fold.open_session:
        return RunSummary(**common, outcome="cut_off", is_error=fold.is_error, complete=False)
    if fold.run_state is not None:
        details: dict[str, Any] = {
            "runState": fold.run_state,
            "turnState": fold.turn_state,
            "disposition": fold.disposition,
        }
        if fold.stop_reason:
            details["stopReason"] = fold.stop_reason
        return RunSummary(
            **common,
            outcome=fold.result_outcome or _RUN_OUTCOMES[fold.run_state],
            is_error=fold.run_state == "failed" or fold.is_error,
            complete=True,
            details=details,
        )
    return RunSummary(
        **common,
        outcome=fold.result_outcome or fold.outcome,
        is_error=fold.is_error,
        complete=bool(fold.complete),
    )


def run_fold(pipeline: Any) -> RunFold:
    """The :class:`RunFold` a pipeline was made with (``Pipeline(fold=RunFold())``)."""
    fold = pipeline.fold
    if not isinstance(fold, RunFold):
        raise TypeError("the pipeline was made without a RunFold")
    return fold


#: The fold was the stream's ``TranscriptStats`` before contract 1.5 (``RunReport.stats``).
TranscriptStats = RunFold


def _summary_cost_source(source: str | None, cost: float | None) -> str | None:
    # RunSummary.cost_source is one of COST_SOURCES; "reported" was the 1.x reading of a cost.
    if cost is None or source is None:
        return None
    return "estimated" if source == "estimated" else "reported" if source == "reported" else None


def merged(fold: RunFold, plugin: RunSummary) -> RunSummary:
    """``plugin``'s summary with what the entries say in place of its own second reading.

    Entries are the truth where they carry a figure: the session id, the
    usage vocabulary's tokens, a cost with its source, the outcome word
    (contract 1.5 fields on the result entry). What they do not carry
    (details, ``unknown_session``, a plugin that predates the fields, the
    tokens of a session cut off before its result, an outcome word of the
    contract's the plugin chose from the run's context) stays the plugin's.
    The results' turns and usage per model (contract 1.9) and the model a
    result names (contract 1.10) are the entries' where they give them.
    """
    changes: dict[str, Any] = {}
    if fold.token_usage.known and fold.complete:
        # A session cut off before its result is only in the plugin's count (its messages').
        changes["token_usage"] = fold.token_usage
        models = fold.model_usage
        if models and sum(models.values(), TokenUsage()) == fold.token_usage:
            changes["model_usage"] = models  # per model where it accounts for every token
    if fold.turns is not None:
        changes["turns"] = fold.turns
    if fold.result_model is not None:
        changes["model"] = fold.model  # the latest a result or an init after it names
    if fold.result_session_id:
        # The latest session the entries name (an init after the last result starts one the
        # run was cut off in: that is the session to resume, as the plugin says too).
        changes["session_id"] = fold.session_id
    cost = fold.run_cost
    if fold.cost_said and cost != plugin.cost_usd:  # the same figure stays as written
        changes["cost_usd"] = cost
        changes["cost_source"] = _summary_cost_source(fold.cost_source, cost)
    if fold.result_outcome is not None and not is_outcome(plugin.outcome):
        # A plugin's own contract word stays: it sees what one result does not (a person's
        # interruption before an error result, a session cut off after the last result).
        changes["outcome"] = fold.result_outcome
    return replace(plugin, **changes) if changes else plugin


def _add_models(totals: dict[str, TokenUsage], models: Mapping[str, Any]) -> None:
    for model, counts in models.items():
        usage = TokenUsage.from_json(counts)
        before = totals.get(model)
        totals[model] = usage if before is None else before + usage


def finite(value: object) -> float | None:
    """A number as a float, or None when it is not one a summary can hold (huge, inf, nan)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _tokens(value: object) -> int:
    """A token count; 0 for one no run can have (negative, fractional nonsense, huge)."""
    number = finite(value)
    if number is None or not 0 <= number <= MAX_TOKENS:
        return 0
    return int(number)
