"""Contract 1.3's kinds in words: a label, a heading and detail lines for each, every view alike.

The text, compact and HTML views, and ``summarize``, say the same thing about
a plan, a workspace change, a runtime request, a run result or a terminal
state; the words are chosen here once. Nothing here escapes or neutralises:
the caller does, for its medium (terminal or page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = [
    "DESCRIBED_KINDS",
    "PlanStep",
    "change_line",
    "details",
    "file_line",
    "heading",
    "is_failure",
    "kind_label",
    "payload_facts",
    "plan_steps",
    "request_answers",
    "terminal_words",
    "verification_mark",
]

#: The kinds described here (the six contract 1.3 added).
DESCRIBED_KINDS: Final = frozenset(
    {
        "provider_activity",
        "workspace_change",
        "workspace_file_reference",
        "runtime_request",
        "run_result",
        "run_terminal",
    }
)

_LABELS: Final = {
    "provider_activity": "activity",
    "workspace_change": "changes",
    "workspace_file_reference": "file",
    "runtime_request": "request",
    "run_result": "run result",
    "run_terminal": "run end",
}
#: Plan steps, payload facts, files, questions or options listed; the rest are counted.
LISTED: Final = 50
_FACT_CHARS: Final = 200
_STEP_MARKS: Final = {"completed": "[x]", "in_progress": "[~]", "running": "[~]"}
_VERIFICATION_MARKS: Final = {"passed": "✓", "failed": "✗", "not_run": "·"}
_OPERATION_WORDS: Final = {
    "create": "added",
    "modify": "modified",
    "delete": "deleted",
    "rename": "renamed",
    "mode_change": "mode changed",
}

PlanStep = tuple[str, str]
"""A plan step: its status (``completed``, ``in_progress``, ``pending``) and its text."""


def kind_label(kind: str) -> str:
    """The short label the text view prints beside an entry of ``kind``."""
    return _LABELS.get(kind, kind)


def is_failure(entry: Mapping[str, Any]) -> bool:
    """True when the entry reports something that went wrong (drawn in the error colour)."""
    kind = entry.get("kind")
    if kind == "provider_activity":
        return entry.get("status") == "failed"
    if kind == "run_result":
        return entry.get("disposition") == "blocked" or any(
            isinstance(check, Mapping) and check.get("status") == "failed"
            for check in entry.get("verification", ())
        )
    if kind == "run_terminal":
        return entry.get("turnState") == "failed" or entry.get("runState") == "failed"
    return False


def _words(value: object) -> str:
    return str(value).replace("_", " ")


def _count(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,}"


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _more(total: int, shown: int, what: str) -> list[str]:
    hidden = total - shown
    return [f"… {_plural(hidden, what)} more"] if hidden > 0 else []


# -- provider activity ------------------------------------------------------------------


def plan_steps(payload: Mapping[str, Any]) -> list[PlanStep]:
    """The steps of a plan payload (``steps`` of ``paperclip.plan.updated.v1``, or ``items``)."""
    steps = payload.get("steps")
    if not isinstance(steps, Sequence) or isinstance(steps, str):
        steps = payload.get("items")
    if not isinstance(steps, Sequence) or isinstance(steps, str):
        return []
    found: list[PlanStep] = []
    for step in steps:
        if not isinstance(step, Mapping):
            continue
        text = next(
            (
                value
                for key in ("body", "text", "step", "content", "title")
                if isinstance(value := step.get(key), str) and value
            ),
            "",
        )
        status = step.get("status")
        if not isinstance(status, str):
            status = "completed" if step.get("completed") is True else "pending"
        found.append((status, text))
    return found


def _step_line(step: PlanStep) -> str:
    status, text = step
    return f"{_STEP_MARKS.get(status, '[ ]')} {text}"


def payload_facts(payload: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The payload's plain facts (``key``, value as text), the schema name and lists left out."""
    facts: list[tuple[str, str]] = []
    for key, value in payload.items():
        if key == "schema" or isinstance(value, Mapping | list):
            continue
        if value is None:
            continue
        text = value if isinstance(value, str) else _json_scalar(value)
        if len(text) > _FACT_CHARS:
            text = text[: _FACT_CHARS - 1] + "…"
        facts.append((str(key), text))
    return facts


def _json_scalar(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return _count(value) if isinstance(value, int | float) else str(value)


def _activity_heading(entry: Mapping[str, Any]) -> str:
    parts = [entry["title"], _words(entry["status"])]
    summary = entry["summary"]
    if summary and summary != entry["eventType"]:
        parts.append(summary)
    parts.append(entry["eventType"])
    if entry["family"] == "plan":
        steps = plan_steps(entry["payload"])
        if steps:
            done = sum(1 for status, _ in steps if status == "completed")
            parts.insert(2, f"{done} of {len(steps)} done")
    return " · ".join(parts)


def _activity_details(entry: Mapping[str, Any]) -> list[str]:
    payload: Mapping[str, Any] = entry["payload"]
    lines: list[str] = []
    if entry["family"] == "plan":
        explanation = payload.get("explanation")
        if isinstance(explanation, str) and explanation:
            lines.append(explanation)
        steps = plan_steps(payload)
        lines.extend(_step_line(step) for step in steps[:LISTED])
        lines.extend(_more(len(steps), LISTED, "step"))
        if steps or lines:
            return lines
    facts = payload_facts(payload)
    lines.extend(f"{key}: {value}" for key, value in facts[:LISTED])
    lines.extend(_more(len(facts), LISTED, "fact"))
    return lines


# -- workspace --------------------------------------------------------------------------


def _signed(additions: object, deletions: object) -> str:
    if additions is None and deletions is None:
        return ""
    return f"+{_count(additions)} -{_count(deletions)}"


def file_line(file: Mapping[str, Any]) -> str:
    """One changed file: ``modified ui/src/App.tsx +3 -1`` (``renamed a → b``, ``binary``)."""
    path = file["path"]
    previous = file.get("previousPath")
    where = f"{previous} → {path}" if previous and previous != path else path
    parts = [_OPERATION_WORDS.get(file["operation"], _words(file["operation"])), where]
    counts = _signed(file.get("additions"), file.get("deletions"))
    if counts:
        parts.append(counts)
    if file.get("binary") is True:
        parts.append("(binary)")
    return " ".join(parts)


def change_line(entry: Mapping[str, Any]) -> str:
    """A workspace change in one line: files, line counts, who says so, which revision."""
    totals: Mapping[str, Any] = entry["totals"]
    files = totals.get("files")
    count = _count(files)
    parts = [f"{count} file{'' if count == '1' else 's'}"]
    counts = _signed(totals.get("additions"), totals.get("deletions"))
    if counts:
        parts.append(counts)
    parts.append("verified by the runner" if entry["source"] == "runner_verified" else "reported")
    revision = f"revision {_count(entry['revision'])}"
    parts.append(revision if entry["complete"] else f"{revision}, in progress")
    return " · ".join(parts)


def _change_details(entry: Mapping[str, Any], *, diffs: bool) -> list[str]:
    files: Sequence[Mapping[str, Any]] = entry["files"]
    lines: list[str] = []
    for file in files[:LISTED]:
        lines.append(file_line(file))
        diff = file.get("diff")
        if diffs and isinstance(diff, str) and diff:
            lines.extend("  " + line for line in diff.rstrip("\n").split("\n"))
    lines.extend(_more(len(files), LISTED, "file"))
    shown = _count(entry["totals"].get("files"))
    if shown != "?" and int(entry["totals"]["files"]) > len(files):
        lines.append(f"({shown} files changed; {len(files):,} listed)")
    ref = entry.get("patchArtifactRef")
    if isinstance(ref, str) and ref:
        lines.append(f"full patch: {ref}")
    return lines


def _reference_heading(entry: Mapping[str, Any]) -> str:
    where = entry["path"]
    line = entry.get("line")
    if line is not None:
        where += f":{_count(line)}"
    parts = [where, entry["presentation"]]
    if entry.get("mediaType"):
        parts.append(entry["mediaType"])
    if entry["displayName"] and entry["displayName"] != entry["path"].rsplit("/", 1)[-1]:
        parts.insert(0, entry["displayName"])
    return " · ".join(parts)


def _reference_details(entry: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    preview = entry.get("preview")
    if isinstance(preview, str) and preview:
        lines.extend(preview.rstrip("\n").split("\n"))
        if entry.get("previewTruncated") is True:
            lines.append("… (preview cut by the producer)")
    digest = entry.get("contentDigest")
    if isinstance(digest, str) and digest:
        lines.append(f"digest {digest}")
    return lines


# -- runtime requests -------------------------------------------------------------------


def _request_state(entry: Mapping[str, Any]) -> str:
    status = entry["status"]
    action = entry.get("resolvedAction")
    return f"{status} ({action})" if isinstance(action, str) and action else status


def _request_heading(entry: Mapping[str, Any]) -> str:
    what = "input request" if entry["requestType"] == "input" else "permission request"
    kind = entry.get("requestKind")
    if isinstance(kind, str) and kind not in ("user_input", "runtime", "permission_approval"):
        what += f" ({_words(kind)})"
    first = entry["prompt"].split("\n", 1)[0]
    return f"{what} · {_request_state(entry)} · {first}"


def request_answers(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The submitted answers: (question id or prompt, the answer as text)."""
    response = entry.get("response")
    if not isinstance(response, Mapping):
        return []
    prompts: dict[str, str] = {}
    labels: dict[str, str] = {}
    questions = entry.get("questionSet")
    if isinstance(questions, Mapping):
        for question in questions.get("questions", ()):
            prompts[question["id"]] = question["prompt"]
            for option in question.get("options", ()):
                labels[option["id"]] = option["label"]
    answers: list[tuple[str, str]] = []
    for key, answer in response.get("answers", {}).items():
        words = [labels.get(option, option) for option in answer.get("selectedOptionIds", ())]
        words.extend(answer[name] for name in ("text", "customText") if answer.get(name))
        answers.append((prompts.get(key, key), ", ".join(words) or "(no answer)"))
    return answers


def _request_details(entry: Mapping[str, Any]) -> list[str]:
    # A prompt of several lines: the first is in the heading, the rest come first here.
    lines: list[str] = entry["prompt"].split("\n")[1:]
    choices: Sequence[Mapping[str, Any]] = entry["choices"]
    if choices:
        action = entry.get("resolvedAction")
        lines.append(
            "choices: "
            + "  ".join(
                f"[{choice['label']}]" + (" ← chosen" if choice["key"] == action else "")
                for choice in choices
            )
        )
    for field in entry["fields"][:LISTED]:
        hint = f" ({field['placeholder']})" if field.get("placeholder") else ""
        lines.append(f"field {field['label']}{hint}")
    questions = entry.get("questionSet")
    if isinstance(questions, Mapping):
        for name in ("title", "description"):
            if questions.get(name):
                lines.append(questions[name])
        listed: Sequence[Mapping[str, Any]] = questions["questions"]
        for question in listed[:LISTED]:
            required = " (required)" if question.get("required") else ""
            lines.append(f"? {question['prompt']}{required} · {_words(question['answerMode'])}")
            options: Sequence[Mapping[str, Any]] = question.get("options", ())
            lines.extend(f"  - {option['label']}" for option in options[:LISTED])
            lines.extend("  " + more for more in _more(len(options), LISTED, "option"))
        lines.extend(_more(len(listed), LISTED, "question"))
    lines.extend(f"answer {prompt}: {answer}" for prompt, answer in request_answers(entry))
    return lines


# -- the run's result and its end -------------------------------------------------------


def verification_mark(status: str) -> str:
    """✓ passed, ✗ failed, · not run."""
    return _VERIFICATION_MARKS.get(status, "·")


def _result_heading(entry: Mapping[str, Any]) -> str:
    parts = [_words(entry["disposition"])]
    satisfied = entry.get("objectiveSatisfied")
    if satisfied is not None:
        parts.append("objective met" if satisfied else "objective not met")
    parts.append(entry["summary"])
    return " · ".join(parts)


def _result_details(entry: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for check in entry["verification"]:
        status = check["status"]
        detail = f" — {check['detail']}" if check.get("detail") else ""
        state = "" if status == "passed" else f" ({_words(status)})"
        lines.append(f"{verification_mark(status)} {check['commandOrCheck']}{state}{detail}")
    for work in entry["remainingWork"]:
        blocking = " (blocks completion)" if work["blocksCompletion"] else ""
        lines.append(f"remaining: {work['description']}{blocking}")
    blocker = entry.get("blocker")
    if isinstance(blocker, Mapping):
        lines.append(
            f"blocked ({_words(blocker['scope'])}): {blocker['reasonCode']} · "
            f"{blocker['unblockAction']}"
        )
    for artifact in entry["artifacts"]:
        title = f" {artifact['title']}" if artifact.get("title") else ""
        lines.append(f"artifact {artifact['kind']}{title}: {artifact['ref']}")
    return lines


def terminal_words(entry: Mapping[str, Any]) -> str:
    """``turn interrupted · run cancelled · yielded · stop: user_stop``."""
    parts = [
        f"turn {entry['turnState']}",
        f"run {entry['runState']}",
        _words(entry["disposition"]),
    ]
    stop = entry.get("stopReason")
    if isinstance(stop, str) and stop:
        parts.append(f"stop: {stop}")
    return " · ".join(parts)


# -- one entry --------------------------------------------------------------------------


def heading(entry: Mapping[str, Any]) -> str:
    """One line saying what a 1.3 entry is and says."""
    kind = entry["kind"]
    if kind == "provider_activity":
        return _activity_heading(entry)
    if kind == "workspace_change":
        return change_line(entry)
    if kind == "workspace_file_reference":
        return _reference_heading(entry)
    if kind == "runtime_request":
        return _request_heading(entry)
    if kind == "run_result":
        return _result_heading(entry)
    if kind == "run_terminal":
        return terminal_words(entry)
    return str(kind)


def details(entry: Mapping[str, Any], *, diffs: bool = True) -> list[str]:
    """The lines under the heading (a plan's steps, a change's files and diffs, ...)."""
    kind = entry["kind"]
    if kind == "provider_activity":
        return _activity_details(entry)
    if kind == "workspace_change":
        return _change_details(entry, diffs=diffs)
    if kind == "workspace_file_reference":
        return _reference_details(entry)
    if kind == "runtime_request":
        return _request_details(entry)
    if kind == "run_result":
        return _result_details(entry)
    return []
