"""The usage page: tokens and cost per day, week or month, and per model, project or CLI.

Every figure comes from the host's usage aggregation (``linewise.sessions.usage``, the
code behind ``linewise usage``): one report over all the sessions for the
totals, and for a breakdown by project or CLI one report per project or CLI
(the same aggregation over that part of the sessions); by model, the report's
own per-model rows. Unknown is never 0: a row whose tokens nobody reported draws
no bar and says "unknown"; estimated costs are drawn apart and say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from linewise_serve._host import UsageRecord, record_of, usage_report
from linewise_serve.charts import Series, bar_chart
from linewise_serve.index import Listed
from linewise_serve.markup import cost_text, escaped, frame, href, tokens_text

__all__ = ["BREAKDOWNS", "PERIODS", "usage_data", "usage_page"]

PERIODS: Final = ("daily", "weekly", "monthly")
BREAKDOWNS: Final = ("model", "project", "cli")
_PERIOD_WORD: Final = {"daily": "day", "weekly": "week (from Monday)", "monthly": "month"}
#: Groups drawn in a breakdown (the largest first); the table lists every group.
_GROUPS_DRAWN: Final = 10


def _rows(records: Sequence[UsageRecord], period: str) -> dict[str, dict[str, Any]]:
    report = usage_report(records, period)  # type: ignore[arg-type]
    return {key: totals.to_json() for key, totals in report.rows}


def usage_data(listed: Sequence[Listed], period: str, breakdown: str) -> dict[str, Any]:
    """The figures the page draws: ``rows`` (as ``linewise usage PERIOD --json`` has them),
    ``total``, and ``groups``: per group, its rows by period key."""
    records = [record_of(one.info) for one in listed]
    report = usage_report(records, period)  # type: ignore[arg-type]
    rows = [{"key": key, **totals.to_json()} for key, totals in report.rows]
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    if breakdown == "model":
        for row in rows:
            for model, data in row.get("models", {}).items():
                groups.setdefault(model, {})[row["key"]] = data
    else:
        parts: dict[str, list[UsageRecord]] = {}
        for record in records:
            key = record.cli if breakdown == "cli" else (record.project or "(no project)")
            parts.setdefault(key, []).append(record)
        groups = {key: _rows(part, period) for key, part in parts.items()}
    return {"rows": rows, "total": report.total.to_json(), "groups": groups}


def _tokens(data: dict[str, Any]) -> int | None:
    value = data.get("totalTokens")
    return value if isinstance(value, int) else None


def _select(name: str, values: Sequence[str], chosen: str) -> str:
    options = "".join(
        f'<option value="{value}"{" selected" if value == chosen else ""}>{value}</option>'
        for value in values
    )
    return f'<select name="{name}" aria-label="{name}">{options}</select>'


def usage_page(listed: Sequence[Listed], period: str, breakdown: str) -> str:
    """The page: the tokens chart, the cost chart, the breakdown chart, and the table."""
    data = usage_data(listed, period, breakdown)
    rows = data["rows"]
    labels = [row["key"] for row in rows]
    word = _PERIOD_WORD[period]
    tokens_chart = bar_chart(
        f"Tokens per {word} (UTC)",
        labels,
        [Series("total tokens", [_tokens(row) for row in rows])],
        unit="tokens",
        chart_id="tokens-chart",
    )
    cost_chart = bar_chart(
        f"Cost per {word}, USD: reported by the CLI, or estimated from list prices",
        labels,
        [
            Series("reported", [row["reportedCostUsd"] for row in rows]),
            Series("estimated", [row["estimatedCostUsd"] for row in rows]),
        ],
        unit="USD",
        money=True,
        chart_id="cost-chart",
    )
    groups = data["groups"]
    ranked = sorted(
        groups, key=lambda name: -sum(_tokens(one) or 0 for one in groups[name].values())
    )
    drawn = ranked[:_GROUPS_DRAWN]
    breakdown_chart = bar_chart(
        f"Tokens per {word} by {breakdown}"
        + (f" (the {len(drawn)} largest of {len(ranked)})" if len(ranked) > len(drawn) else ""),
        labels,
        [
            Series(
                name,
                [_tokens(groups[name][key]) if key in groups[name] else None for key in labels],
            )
            for name in drawn
        ],
        unit="tokens",
        chart_id="breakdown-chart",
    )
    body = (
        "<h1>Usage</h1>"
        '<form class="filters" method="get" action="/usage">'
        + _select("period", PERIODS, period)
        + _select("by", BREAKDOWNS, breakdown)
        + '<button type="submit">Show</button></form>'
        + '<p class="legend">Tokens: every input token (uncached, cache reads and writes) and '
        "output, as the CLIs reported them; a session counts whole in the period of its first "
        "event (UTC). No bar: no session of that period reported the figure (unknown, not 0). "
        "Estimated: the CLI recorded no cost and it was priced from list prices.</p>"
        + f'<figure class="chart">{tokens_chart}</figure>'
        + f'<figure class="chart">{cost_chart}</figure>'
        + f'<figure class="chart">{breakdown_chart}</figure>'
        + _table(rows, data["total"], word)
    )
    return frame("Usage", body, current="/usage")


def _table(rows: list[dict[str, Any]], total: dict[str, Any], word: str) -> str:
    def line(key: str, data: dict[str, Any], cell: str = "td") -> str:
        return (
            f"<tr><{cell}>{escaped(key)}</{cell}><td class=n>{data['sessions']:,}</td>"
            f"<td class=n>{tokens_text(_tokens(data))}</td>"
            f"<td class=n>{escaped(cost_text(data['costUsd'], data['costSource']))}</td>"
            f"<td class=n>{data['sessionsWithUnknownCost']:,}</td></tr>"
        )

    body = "".join(line(row["key"], row) for row in rows)
    return (
        '<table class="usage" id="usage-table"><thead><tr>'
        f"<th>{escaped(word)} (UTC)</th><th class=n>sessions</th><th class=n>total tokens</th>"
        "<th class=n>cost</th><th class=n>sessions with unknown cost</th></tr></thead>"
        f"<tbody>{body}</tbody><tfoot>{line('total', total, 'th')}</tfoot></table>"
        f'<p><a href="{href("/usage", {})}">reset</a></p>'
    )
