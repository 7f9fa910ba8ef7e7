"""The ATIF format (``-f atif``): a run as one Agent Trajectory Interchange Format v1.7
trajectory, with each subagent's work as an embedded trajectory of its own.

Steps follow the transcript: a user message is a ``user`` step; the agent's text,
thinking and tool calls up to the next user message or tool result are one
``agent`` step (``message``, ``reasoning_content``, ``tool_calls``); each tool
result is an ``observation`` result on the step whose call it answers
(``source_call_id``); lifecycle, stderr, raw output, diffs and the contract 1.3
kinds are ``system`` steps that say their kind in ``extra``. Entries with a
``parentToolUseId`` go to the subagent trajectory of that call, embedded in
``subagent_trajectories`` and referenced from the call's observation by
``trajectory_id``. ``final_metrics`` come from the run summary every view
reads: ``total_prompt_tokens`` is input with cache reads (ATIF counts cached
tokens in the prompt), tokens the CLI did not report are left out, never 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any, Final

from linewise_contracts.entries import TranscriptEntry
from linewise_contracts.summary import RunSummary

from linewise.render import described
from linewise.render.outcome import summary_outcome, summary_tokens_known
from linewise.settings.version import __version__

__all__ = ["SCHEMA_VERSION", "AtifRenderer"]

#: The ATIF version written.
SCHEMA_VERSION: Final = "ATIF-v1.7"
# Subagent trajectories kept at most (one per subagent call); later ones share the last.
_MAX_TRAJECTORIES: Final = 10_000


class _Trajectory:
    """One trajectory being built: its steps, and where each tool call's step is."""

    def __init__(self, trajectory_id: str) -> None:
        self.trajectory_id = trajectory_id
        self.steps: list[dict[str, Any]] = []
        self.open: dict[str, Any] | None = None  # the agent step still gathering
        self.calls: dict[str, dict[str, Any]] = {}  # toolUseId -> its step
        self.children: list[_Trajectory] = []
        self.model: str | None = None

    def step(self, source: str, message: str, ts: object, **fields: Any) -> dict[str, Any]:
        step: dict[str, Any] = {"step_id": len(self.steps) + 1, "source": source}
        if isinstance(ts, str) and ts:
            step["timestamp"] = ts
        step["message"] = message
        step.update(fields)
        self.steps.append(step)
        return step

    def agent_step(self, ts: object) -> dict[str, Any]:
        if self.open is None:
            self.open = self.step("agent", "", ts)
            if self.model:
                self.open["model_name"] = self.model
        return self.open


class AtifRenderer:
    """Gathers the entries of a run and writes its ATIF trajectory (pretty JSON) at close."""

    def __init__(
        self, stream: IO[str], *, title: str = "transcript", adapter_type: str = "process"
    ) -> None:
        self._stream = stream
        self._title = title
        self._adapter_type = adapter_type
        self._root = _Trajectory("main")
        self._trajectories: dict[str, _Trajectory] = {}  # parentToolUseId -> trajectory
        self._session_id: str | None = None
        self._model: str | None = None
        self._result: Mapping[str, Any] | None = None

    def _trajectory(self, entry: Mapping[str, Any]) -> _Trajectory:
        parent = entry.get("parentToolUseId")
        if not isinstance(parent, str) or not parent:
            return self._root
        found = self._trajectories.get(parent)
        if found is None:
            found = _Trajectory(f"subagent-{parent}")
            found.model = self._model
            if len(self._trajectories) < _MAX_TRAJECTORIES:
                self._trajectories[parent] = found
            owner = self._owner(parent)
            owner.children.append(found)
            self._refer(owner, parent, found)
        return found

    def _owner(self, call_id: str) -> _Trajectory:
        """The trajectory whose step made the call ``call_id`` (the main one if unseen)."""
        for trajectory in (self._root, *self._trajectories.values()):
            if call_id in trajectory.calls:
                return trajectory
        return self._root

    @staticmethod
    def _refer(owner: _Trajectory, call_id: str, child: _Trajectory) -> None:
        step = owner.calls.get(call_id)
        if step is None:
            return
        result = _result_for(step, call_id)
        result["subagent_trajectory_ref"] = [{"trajectory_id": child.trajectory_id}]

    def write(self, entry: TranscriptEntry) -> None:
        """Take one entry into its trajectory."""
        item: Mapping[str, Any] = entry
        kind = item["kind"]
        trajectory = self._trajectory(item)
        ts = item.get("ts")
        if kind == "init":
            self._session_id = self._session_id or item.get("sessionId") or None
            model = item.get("model")
            if isinstance(model, str) and model:
                self._model = self._model or model
                trajectory.model = trajectory.model or model
            return
        if kind in ("assistant", "thinking"):
            step = trajectory.agent_step(ts)
            field = "message" if kind == "assistant" else "reasoning_content"
            step[field] = step.get(field, "") + item["text"]
            return
        if kind == "tool_call":
            step = trajectory.agent_step(ts)
            ident = item.get("toolUseId")
            call_id = (
                ident
                if isinstance(ident, str) and ident
                else f"call-{len(step.get('tool_calls', [])) + 1}"
            )
            arguments = (
                item["input"] if isinstance(item["input"], dict) else {"input": item["input"]}
            )
            step.setdefault("tool_calls", []).append(
                {
                    "tool_call_id": call_id,
                    "function_name": item["name"] or "tool",
                    "arguments": arguments,
                }
            )
            trajectory.calls[call_id] = step
            return
        if kind == "tool_result":
            ident = item["toolUseId"]
            owner = trajectory if ident in trajectory.calls else self._owner(ident)
            answered = owner.calls.get(ident)
            if answered is None:  # a result whose call was never seen: a system step says so
                trajectory.open = None
                trajectory.step(
                    "system",
                    item["content"],
                    ts,
                    extra={"linewise_kind": "tool_result", "tool_use_id": ident},
                )
                return
            result = _result_for(answered, ident)
            result["content"] = item["content"]
            if item["isError"]:
                result.setdefault("extra", {})["is_error"] = True
            owner.open = None  # the agent's next text is its next step
            return
        if kind == "user":
            trajectory.open = None
            trajectory.step("user", item["text"], ts)
            return
        if kind == "result":
            if trajectory is self._root:
                self._result = item
            return
        trajectory.open = None
        if kind == "diff":
            last = trajectory.steps[-1] if trajectory.steps else None
            if last is not None and last.get("extra", {}).get("linewise_kind") == "diff":
                last["message"] += "\n" + item["text"]
                return
            trajectory.step("system", item["text"], ts, extra={"linewise_kind": "diff"})
            return
        if kind in ("system", "stderr", "stdout"):
            trajectory.step("system", item["text"], ts, extra={"linewise_kind": kind})
            return
        details = "\n".join(described.details(item))
        message = described.heading(item) + ("\n" + details if details else "")
        trajectory.step("system", message, ts, extra={"linewise_kind": kind})

    def close(self, *, summary: RunSummary | None = None) -> None:
        """Write the trajectory as one JSON document."""
        session = self._session_id or (summary.session_id if summary else None) or self._title
        model = (summary.model if summary else None) or self._model
        document = self._document(self._root, session, model)
        document["trajectory_id"] = session
        final = _final_metrics(summary, document["steps"])
        if final:
            document["final_metrics"] = final
        extra: dict[str, Any] = {"converter": f"linewise {__version__}", "source": self._title}
        if summary is not None:
            extra["outcome"] = summary_outcome(summary)
        if self._result is not None and self._result.get("subtype"):
            extra["result_subtype"] = self._result["subtype"]
        document["extra"] = extra
        json.dump(document, self._stream, ensure_ascii=False, indent=2)
        self._stream.write("\n")
        self._stream.flush()

    def _document(self, trajectory: _Trajectory, session: str, model: str | None) -> dict[str, Any]:
        agent: dict[str, Any] = {"name": self._adapter_type, "version": "unknown"}
        if model:
            agent["model_name"] = model
        steps = trajectory.steps or [
            {"step_id": 1, "source": "system", "message": "", "extra": {"linewise_kind": "empty"}}
        ]
        document: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "session_id": session,
            "trajectory_id": trajectory.trajectory_id,
            "agent": agent,
            "steps": steps,
        }
        if trajectory.children:
            document["subagent_trajectories"] = [
                self._document(child, session, child.model or model)
                for child in trajectory.children
            ]
        return document


def _result_for(step: dict[str, Any], call_id: str) -> dict[str, Any]:
    """The observation result of ``call_id`` on ``step``, made when first needed."""
    results = step.setdefault("observation", {"results": []})["results"]
    for result in results:
        if result.get("source_call_id") == call_id:
            return result  # type: ignore[no-any-return]
    result = {"source_call_id": call_id, "content": None}
    results.append(result)
    return result


def _final_metrics(summary: RunSummary | None, steps: list[dict[str, Any]]) -> dict[str, Any]:
    final: dict[str, Any] = {"total_steps": len(steps)}
    if summary is None:
        return final
    if summary_tokens_known(summary):
        usage = summary.usage
        final["total_prompt_tokens"] = usage.input_tokens + usage.cached_tokens
        final["total_completion_tokens"] = usage.output_tokens
        final["total_cached_tokens"] = usage.cached_tokens
    if summary.cost_usd is not None:
        final["total_cost_usd"] = summary.cost_usd
    return final
