"""The summary of a saved Gemini CLI session: ``summarize_run`` of ``gemini_session``.

Read through the session parser's own entries, so the summary and the
transcript agree: the session id and model of ``init`` (the model, when
``init`` names none, from the first record naming one), tokens summed over the
``result`` entries, no cost (Gemini CLI records none: unknown, never $0), the
last assistant text as the final text (no outcome: a chat records none),
``stderr`` entries as errors. A chat has no end marker: it counts as complete
when the model answered its last prompt with text on the main thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, cast

from linewise_contracts.extract import as_int, as_string, dig, parse_json_object
from linewise_contracts.summary import RunSummary, Usage

from linewise_gemini.session_parser import create_stdout_parser

__all__ = ["summarize_run"]

_TS: Final = "1970-01-01T00:00:00.000Z"
_KEPT_ERRORS: Final = 20


def _model(record: dict[str, Any]) -> str:
    """The model a chat record names: a reply's ``model``, or the header's ``meta.model``."""
    return as_string(record.get("model")) or as_string(dig(record, "meta", "model"))


def summarize_run(lines: Iterable[str]) -> RunSummary:
    """The whole session's summary (see the module docstring)."""
    parser = create_stdout_parser()
    session_id = model = None
    usage = Usage()
    texts: list[str] = []
    errors: list[str] = []
    answered = False  # the last prompt got the model's text on the main thread
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
            elif kind == "assistant" and "parentToolUseId" not in entry:
                if entry.get("delta") is True and streaming:
                    texts[-1] += entry["text"]
                else:
                    texts.append(entry["text"])
            elif kind == "stderr" and len(errors) < _KEPT_ERRORS:
                errors.append(entry["text"])
            if kind in ("user", "assistant") and "parentToolUseId" not in entry:
                answered = kind == "assistant"
            streaming = texts != [] and kind == "assistant" and entry.get("delta") is True
    return RunSummary(
        session_id=session_id,
        model=model,
        usage=usage,
        cost_usd=None,
        final_text=texts[-1].strip() if texts else None,
        errors=tuple(errors),
        complete=answered,
    )
