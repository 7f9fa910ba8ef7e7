"""The summary of a saved OpenCode session: ``summarize_run`` of ``opencode_session``.

Read through the session parser's own entries, so the summary and the
transcript agree: the session id and model of ``init`` (the model, when
``init`` names none, from the first record naming one), tokens summed over the
``result`` entries, the cost summed over the steps (OpenCode records it per
step), the last assistant text as the final text, ``stderr`` entries as errors.
The outcome is the last step's finish reason; the session is complete when that
step finished for good (not to call tools) and no prompt came after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, cast

from linewise_contracts.extract import as_int, as_object, as_string, dig, parse_json_object
from linewise_contracts.summary import RunSummary, Usage

from linewise_opencode.session_parser import create_stdout_parser

__all__ = ["summarize_run"]

_TS: Final = "1970-01-01T00:00:00.000Z"
_KEPT_ERRORS: Final = 20


def _model(record: dict[str, Any]) -> str:
    """The model a session line or an assistant message names."""
    model = dig(record, "session", "model")
    if type(model) is dict:
        model = model.get("id")
    info = as_object(record.get("info"))
    return (
        as_string(model)
        or as_string(info.get("modelID"))
        or as_string(dig(info, "model", "modelID"))
    )


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole session's summary (see the module docstring)."""
    parser = create_stdout_parser()
    session_id = model = outcome = None
    usage = Usage()
    costs: list[float] = []
    texts: list[str] = []
    errors: list[str] = []
    prompted = False  # a prompt came after the last step finished
    streaming = False  # the last entry was a streamed fragment of the final text
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        record = parse_json_object(line)
        if record is not None and model is None:
            model = _model(record) or None
        for parsed in parser.parse_line(line, _TS):
            entry = cast("dict[str, Any]", parsed)
            kind = entry["kind"]
            if kind == "init":
                session_id = entry["sessionId"] or session_id
                model = entry["model"] or model
            elif kind == "result":
                usage += Usage(
                    input_tokens=as_int(entry["inputTokens"]),
                    output_tokens=as_int(entry["outputTokens"]),
                    cached_tokens=as_int(entry["cachedTokens"]),
                )
                costs.append(float(entry["costUsd"]))
                outcome = entry["subtype"] or outcome
            elif kind == "assistant" and "parentToolUseId" not in entry:
                if entry.get("delta") is True and streaming:
                    texts[-1] += entry["text"]
                else:
                    texts.append(entry["text"])
            elif kind == "stderr" and len(errors) < _KEPT_ERRORS:
                errors.append(entry["text"])
            if kind in ("user", "result") and "parentToolUseId" not in entry:
                prompted = kind == "user"
            streaming = texts != [] and kind == "assistant" and entry.get("delta") is True
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage,
        cost_usd=sum(costs) if costs else None,
        final_text=texts[-1].strip() if texts else None,
        outcome=outcome,
        errors=tuple(errors),
        complete=not prompted and outcome not in (None, "tool-calls"),
    )
