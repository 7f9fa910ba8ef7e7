"""Claude's permission prompts and questions (``can_use_tool``) as ``runtime_request`` entries.

A ``control_request`` asks; its ``control_response``, or else the tool's
result, answers. Each gives a complete snapshot of the request (contract 1.3),
so the latest entry for a request id says how it ended. An AskUserQuestion
prompt becomes an input request whose question set is the tool's questions,
and its answers (``tool_use_result.answers``) the response.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.activity import runtime_request
from linewise_contracts.declared import MAX_OPTIONS, MAX_QUESTIONS
from linewise_contracts.entries import QUESTION_RESPONSE_SCHEMA, QUESTION_SET_SCHEMA
from linewise_contracts.extract import as_list, as_object, as_string

__all__ = ["ALLOW_CHOICES", "permission_request", "resolved_request"]

#: Claude's answers to a permission prompt (its ``behavior`` values).
ALLOW_CHOICES: Final = (("allow", "Allow"), ("deny", "Deny"))
# A tool result that says the person refused the call (Claude's own words for it).
_REFUSED: Final = ("doesn't want to proceed", "was rejected", "permission denied", "denied")


def _question_set(tool_input: dict[str, Any]) -> dict[str, Any] | None:
    questions = []
    for raw in as_list(tool_input.get("questions"))[:MAX_QUESTIONS]:
        question = as_object(raw)
        text = as_string(question.get("question"))
        if not text:
            continue
        options = []
        for raw_option in as_list(question.get("options"))[:MAX_OPTIONS]:
            option = as_object(raw_option)
            label = as_string(option.get("label"))
            if not label:
                continue
            made: dict[str, Any] = {"id": label[:160], "label": label[:1000]}
            description = as_string(option.get("description"))
            if description:
                made["description"] = description[:4000]
            options.append(made)
        made_question: dict[str, Any] = {"id": text[:160]}
        header = as_string(question.get("header"))
        if header:
            made_question["header"] = header[:1000]
        made_question["prompt"] = text[:4000]
        made_question["required"] = True
        made_question["answerMode"] = (
            "multi_select" if question.get("multiSelect") is True else "single_select"
        )
        made_question["options"] = options
        questions.append(made_question)
    if not questions:
        return None
    return {"schema": QUESTION_SET_SCHEMA, "questions": questions}


def permission_request(request: dict[str, Any], ident: str, prompt: str, ts: str) -> dict[str, Any]:
    """A pending request for a ``can_use_tool`` control request (``prompt``: what it asks)."""
    questions = None
    if request.get("requires_user_interaction") is True:
        questions = _question_set(as_object(request.get("input")))
    if questions is not None:
        return runtime_request(
            ts,
            ident,
            prompt,
            request_kind="user_input",
            request_type="input",
            choices=(),
            question_set=questions,
        )
    return runtime_request(
        ts, ident, prompt, request_kind="permission_approval", choices=ALLOW_CHOICES
    )


def _response(request: dict[str, Any], answers: object) -> dict[str, Any] | None:
    given = as_object(answers)
    questions = request.get("questionSet")
    if not given or not isinstance(questions, dict):
        return None
    labels = {
        question["id"]: {option["label"] for option in question.get("options", ())}
        for question in questions["questions"]
    }
    out: dict[str, Any] = {}
    for key, value in list(given.items())[:64]:
        text = as_string(value)
        ident = key[:160]
        known = labels.get(ident, set())
        parts = [part.strip() for part in text.split(",")] if text not in known else [text]
        if parts and all(part in known for part in parts):
            out[ident] = {"selectedOptionIds": [part[:160] for part in parts][:128]}
        elif text:
            out[ident] = {"customText": text[:12_000]}
        else:
            out[ident] = {}
    return {"schema": QUESTION_RESPONSE_SCHEMA, "answers": out}


def resolved_request(
    request: dict[str, Any],
    ts: str,
    *,
    behavior: str | None = None,
    result: dict[str, Any] | None = None,
    details: object = None,
) -> dict[str, Any]:
    """The request's snapshot once answered: by a ``control_response`` ``behavior``
    (allow or deny), or by the tool's result (refused in words, or run)."""
    if behavior is None:
        content = as_string(result.get("content")).lower() if result else ""
        refused = bool(result and result.get("isError") is True) and any(
            words in content for words in _REFUSED
        )
        behavior = "deny" if refused else "allow"
    entry = {**request, "ts": ts}
    entry["status"] = "resolved" if behavior == "allow" else "cancelled"
    if request["requestType"] == "input":
        entry["resolvedAction"] = "submit" if behavior == "allow" else "cancel"
        entry["response"] = _response(request, as_object(details).get("answers"))
    else:
        entry["resolvedAction"] = behavior
    return entry
