"""A Tally run's summary: session, model, usage, cost, the last answer and errors."""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts.entries import JsonValue
from linewise_contracts.summary import RunSummary, Usage

from linewise_tally.parser import TallyParser

__all__ = ["summarize_run"]


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """Session, model, usage, cost, the last answer and errors of a Tally run."""
    parser = TallyParser()
    session_id = model = None
    usage = Usage()
    cost: float | None = None
    answer: list[str] = []
    last_answer: str | None = None
    errors: list[str] = []
    done = False
    for line in lines:
        for entry in parser.parse_line(line, ""):
            if entry["kind"] == "init":
                session_id, model = entry["sessionId"], entry["model"]
            elif entry["kind"] == "assistant":
                if not entry["text"].startswith("\n"):
                    answer = []
                answer.append(entry["text"])
                last_answer = "".join(answer)
            elif entry["kind"] == "result":
                done = True
                usage += Usage(
                    input_tokens=int(entry["inputTokens"]),
                    output_tokens=int(entry["outputTokens"]),
                    cached_tokens=int(entry["cachedTokens"]),
                )
                cost = (cost or 0.0) + entry["costUsd"]
                errors.extend(entry["errors"])
    details: dict[str, JsonValue] = {}
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage,
        cost_usd=cost,
        final_text=last_answer,
        outcome=("error" if errors else "success") if done else None,
        is_error=bool(errors),
        errors=tuple(errors),
        unknown_session=any("unknown session" in error for error in errors),
        complete=done,
        details=details,
    )
