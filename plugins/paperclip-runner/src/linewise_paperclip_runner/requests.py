"""``runtime_request.*`` events to coalesced ``runtime_request`` entries (spec §2.6.4).

Every lifecycle event of a request gives a complete snapshot: what the event
leaves out is carried over from the request's previous entry, so the latest
entry for a ``requestId`` is always the whole request.
"""

from __future__ import annotations

from typing import Any, Final

from linewise_contracts.entries import (
    QUESTION_RESPONSE_SCHEMA,
    QUESTION_SET_SCHEMA,
    RUNTIME_REQUEST_KINDS,
)
from linewise_contracts.extract import BoundedMap

from linewise_paperclip_runner.values import cut, ntext, obj, ordered_keys, str_

__all__ = ["parse_question_response", "parse_question_set", "runtime_request"]

_PERMISSION_LABELS: Final = {
    "accept": "Allow once",
    "accept_for_session": "Allow for session",
    "decline": "Deny",
    "cancel": "Cancel",
}
_ENDED: Final = frozenset({"resolved", "expired", "cancelled"})
_REDACTED: Final = "***REDACTED***"
_SELECT_MODES: Final = frozenset({"single_select", "multi_select"})
_INPUT_TYPES: Final = frozenset({"text", "number", "integer"})
#: Revision B cuts a question set's description to this many characters.
_DESCRIPTION: Final = 4_000


def _number(value: object) -> bool:
    return type(value) is int or (type(value) is float and value - value == 0)


def _question(raw: object, index: int) -> dict[str, Any]:
    question = obj(raw)
    mode = question.get("answerMode")
    mode = mode if type(mode) is str and mode in _SELECT_MODES else "text"
    out: dict[str, Any] = {"id": cut(str_(question.get("id"), f"question-{index + 1}"), 160)}
    header = ntext(question.get("header"))
    if header:
        out["header"] = cut(header, 1_000)
    out["prompt"] = cut(str_(question.get("prompt"), f"Question {index + 1}"), 4_000)
    help_text = ntext(question.get("helpText"))
    if help_text:
        out["helpText"] = cut(help_text, 4_000)
    out["required"] = question.get("required") is True
    out["answerMode"] = mode
    if mode != "text":
        options = question.get("options")
        out["options"] = (
            [_option(option, number) for number, option in enumerate(options[:128])]
            if type(options) is list
            else []
        )
    custom = obj(question.get("customAnswer"))
    if custom.get("enabled") is True:
        answer: dict[str, Any] = {"enabled": True}
        for name in ("label", "placeholder"):
            text = ntext(custom.get(name))
            if text:
                answer[name] = cut(text, 1_000)
        out["customAnswer"] = answer
    validation = question.get("textValidation")
    if type(validation) is dict and validation:
        rules: dict[str, Any] = {}
        for name in ("minLength", "maxLength", "pattern", "inputType", "minimum", "maximum"):
            value = validation.get(name)
            if name == "pattern":
                if type(value) is str:
                    rules[name] = cut(value, 1_000)
            elif name == "inputType":
                if type(value) is str and value in _INPUT_TYPES:
                    rules[name] = value
            elif _number(value):
                rules[name] = value
        out["textValidation"] = rules
    return out


def _option(raw: object, index: int) -> dict[str, Any]:
    option = obj(raw)
    out: dict[str, Any] = {
        "id": cut(str_(option.get("id"), f"option-{index + 1}"), 160),
        "label": cut(str_(option.get("label"), f"Option {index + 1}"), 1_000),
    }
    description = ntext(option.get("description"))
    if description:
        out["description"] = cut(description, 4_000)
    return out


def parse_question_set(value: object) -> dict[str, Any] | None:
    """A ``paperclip.question_set.v1`` question set from ``value``, or None."""
    raw = obj(value)
    questions = raw.get("questions")
    if type(questions) is not list or not questions:
        return None
    if "schema" in raw and raw["schema"] not in (QUESTION_SET_SCHEMA, _REDACTED):
        return None  # a JSON null schema counts as present, so it is refused too
    out: dict[str, Any] = {"schema": QUESTION_SET_SCHEMA}
    for name, limit in (("title", 1_000), ("description", _DESCRIPTION), ("submitLabel", 200)):
        text = ntext(raw.get(name))
        if text:
            out[name] = cut(text, limit)
    out["questions"] = [_question(question, index) for index, question in enumerate(questions[:64])]
    return out


def parse_question_response(value: object) -> dict[str, Any] | None:
    """A ``paperclip.question_response.v1`` response from ``value``, or None."""
    raw = obj(value)
    if raw.get("schema") != QUESTION_RESPONSE_SCHEMA:
        return None
    given = obj(raw.get("answers"))
    answers: dict[str, Any] = {}
    for key in ordered_keys(given)[:64]:
        answer = obj(given[key])
        out: dict[str, Any] = {}
        selected = answer.get("selectedOptionIds")
        if type(selected) is list:
            ids = [cut(item, 160) for item in selected if type(item) is str][:128]
            if ids:
                out["selectedOptionIds"] = ids
        for name in ("text", "customText"):
            text = ntext(answer.get(name))
            if text:
                out[name] = cut(text, 12_000)
        answers[cut(key, 160)] = out
    return {"schema": QUESTION_RESPONSE_SCHEMA, "answers": answers}


def _choices(request: dict[str, Any], previous: dict[str, Any] | None, kind: str) -> list[Any]:
    explicit = request.get("choices")
    if type(explicit) is list:
        choices = []
        for raw in explicit:
            choice = obj(raw)
            key, label = str_(choice.get("key")), str_(choice.get("label"))
            if key and label:
                choices.append({"key": key, "label": label})
        if choices:
            return choices[:32]
    actions = request.get("actions")
    if type(actions) is list:
        named = [a for a in actions if type(a) is str and a in _PERMISSION_LABELS][:4]
        if named:
            return [{"key": action, "label": _PERMISSION_LABELS[action]} for action in named]
    if previous is not None and previous["choices"]:
        return list(previous["choices"])
    if kind == "permission":
        return [{"key": key, "label": label} for key, label in _PERMISSION_LABELS.items()]
    return []


def _fields(request: dict[str, Any], previous: dict[str, Any] | None) -> list[Any]:
    source = obj(request.get("details")).get("fields")
    if type(source) is not list:
        source = previous["fields"] if previous is not None else []
    fields = []
    for index, raw in enumerate(source):
        field = obj(raw)
        name = cut(str_(field.get("name"), f"answer_{index + 1}"), 160)
        label = cut(str_(field.get("label"), str_(field.get("name"), f"Answer {index + 1}")), 240)
        placeholder = ntext(field.get("placeholder"))
        if name and label:
            fields.append(
                {
                    "name": name,
                    "label": label,
                    "placeholder": cut(placeholder, 500) if placeholder else None,
                }
            )
    return fields[:16]


def runtime_request(
    event: dict[str, Any],
    event_type: str,
    payload: dict[str, Any],
    ts: str,
    requests: BoundedMap[str, dict[str, Any]],
) -> list[Any]:
    """The request's new snapshot, remembered in ``requests`` (none without a request id)."""
    request = obj(payload["request"]) if payload.get("request") is not None else payload
    request_id = str_(request.get("requestId"), str_(payload.get("requestId")))
    if not request_id:
        return []
    previous = requests.get(request_id)
    suffix = event_type.rsplit(".", 1)[-1]
    action = (
        ntext(request.get("action"))
        or ntext(payload.get("action"))
        or (previous["resolvedAction"] if previous else None)
    )
    raw_status = str_(request.get("status"), suffix)
    status = raw_status if raw_status in _ENDED else "pending"
    if status == "resolved" and action in ("cancel", "decline"):
        status = "cancelled"
    kind = str_(request.get("requestKind"), (previous["requestKind"] or "") if previous else "")
    request_kind = kind if kind in RUNTIME_REQUEST_KINDS else None
    raw_type = str_(request.get("type"), previous["requestType"] if previous else "")
    request_type = (
        "input"
        if request_kind in ("user_input", "elicitation")
        or "input" in raw_type
        or "elicitation" in raw_type
        else "permission"
    )
    question_set = parse_question_set(request.get("input")) or (
        previous["questionSet"] if previous else None
    )
    response_value = request.get("response")
    if response_value is None:
        response_value = payload.get("response")
    response = parse_question_response(response_value) or (
        previous["response"] if previous else None
    )
    turn_id = (
        ntext(request.get("turnId"))
        or ntext(payload.get("turnId"))
        or ntext(event.get("turnId"))
        or (previous["turnId"] if previous else None)
    )
    prompt = str_(
        request.get("prompt"), previous["prompt"] if previous else "Runtime approval requested"
    )
    entry = {
        "kind": "runtime_request",
        "ts": ts,
        "requestId": request_id,
        "requestKind": request_kind,
        "turnId": turn_id,
        "requestType": request_type,
        "status": status,
        "prompt": prompt,
        "choices": _choices(request, previous, request_type),
        "fields": _fields(request, previous),
        "questionSet": question_set,
        "resolvedAction": action,
        "response": response,
    }
    requests[request_id] = entry
    return [entry]
