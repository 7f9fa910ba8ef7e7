"""A plugin's run summary: its ``summarize_run`` called behind the guard, and checked.

What the transcript alone tells is counted as it streams
(:class:`linewise.transcript.fold.RunFold`); reports over whole logs
(``linewise summarize``) are in :mod:`linewise.transcript.run_report`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from linewise_contracts.summary import COST_SOURCES, RunSummary
from linewise_contracts.usage import TOKEN_FIELDS, TokenUsage

from linewise.plugins.registry import LoadedParser
from linewise.settings.signals import Terminated
from linewise.transcript.fold import MAX_TOKENS, finite

__all__ = ["plugin_summary"]


def _token_usage_problem(name: str, tokens: object) -> str | None:
    """Why a plugin's TokenUsage cannot be shown (not one, or a count no run can have)."""
    if not isinstance(tokens, TokenUsage):
        return f"{name} is not a TokenUsage"
    for field_name, _ in TOKEN_FIELDS:
        count = getattr(tokens, field_name)
        if count is not None and (type(count) is not int or not 0 <= count <= MAX_TOKENS):
            return f"{name}.{field_name} is not a token count"
    return None


def _summary_problem(summary: RunSummary) -> str | None:
    """Why a plugin's run summary cannot be shown, or None when it is sane."""
    usage = summary.usage
    for name, count in (
        ("input_tokens", usage.input_tokens),
        ("output_tokens", usage.output_tokens),
        ("cached_tokens", usage.cached_tokens),
    ):
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_TOKENS:
            return f"usage.{name} is not a token count"
    problem = _token_usage_problem("token_usage", summary.token_usage)
    if problem is not None:
        return problem
    if not isinstance(summary.model_usage, dict):
        return "model_usage is not a dict"
    for model, tokens in summary.model_usage.items():
        if not isinstance(model, str):
            return "model_usage has a model name that is not a string"
        problem = _token_usage_problem(f"model_usage[{model[:40]!r}]", tokens)
        if problem is not None:
            return problem
    if summary.cost_source is not None and summary.cost_source not in COST_SOURCES:
        return "cost_source is not one of " + ", ".join(COST_SOURCES)
    if summary.cost_usd is not None and finite(summary.cost_usd) is None:
        return "cost_usd is not a finite number"
    if summary.turns is not None and (
        isinstance(summary.turns, bool)
        or not isinstance(summary.turns, int)
        or not 0 <= summary.turns <= MAX_TOKENS
    ):
        return "turns is not a count"
    return None


def plugin_summary(
    parser: LoadedParser, lines: Iterable[str], *, strict: bool = False
) -> tuple[RunSummary | None, str | None]:
    """The plugin's ``summarize_run(lines)``, or None and why not.

    A plugin without the export gives ``(None, None)``; one that raises or
    returns something other than a :class:`RunSummary` gives ``(None, reason)``
    (raises instead when ``strict``).
    """
    summarize: Callable[[Iterable[str]], RunSummary] | None = parser.summarize_run
    if summarize is None or parser.is_fallback:
        return None, None
    try:
        summary = summarize(lines)
    except (KeyboardInterrupt, Terminated):
        raise  # the guard let it through: the user's Ctrl-C or a real SIGTERM, a stop
    except BaseException as error:
        if strict:
            raise
        return None, f"{parser.adapter_type} summarize_run raised {type(error).__name__}: {error}"
    if not isinstance(summary, RunSummary):
        return None, (
            f"{parser.adapter_type} summarize_run returned a {type(summary).__name__}, "
            "not a RunSummary"
        )
    problem = _summary_problem(summary)
    if problem is not None:
        return None, f"{parser.adapter_type} summarize_run: {problem}"
    return summary, None
