"""linewise_contracts.activity: the plan card and the request snapshot every CLI builds alike."""

from __future__ import annotations

from linewise_contracts import entry_problem
from linewise_contracts.activity import PERMISSION_CHOICES, plan_activity, runtime_request

TS = "2026-01-01T00:00:00.000Z"


def test_a_plan_is_running_until_every_step_is_completed() -> None:
    plan = plan_activity(TS, [("completed", "Read"), ("in_progress", "Fix"), ("odd", "Ship")])
    assert entry_problem(plan) is None
    assert (plan["family"], plan["status"], plan["title"]) == ("plan", "running", "Plan")
    assert [step["status"] for step in plan["payload"]["steps"]] == [
        "completed",
        "in_progress",
        "pending",  # a status outside the plan's three counts as pending
    ]
    done = plan_activity(TS, [("completed", "Read")], explanation="Why", plan_id="p1")
    assert (done["status"], done["summary"]) == ("completed", "Why")
    assert done["payload"]["planId"] == "p1" and done["payload"]["complete"] is True
    assert plan_activity(TS, [])["status"] == "running"  # nothing done yet is not done


def test_a_request_snapshot_is_a_valid_pending_permission_by_default() -> None:
    request = runtime_request(TS, "r1", "Allow?", request_kind="command_approval")
    assert entry_problem(request) is None
    assert request["status"] == "pending" and request["requestType"] == "permission"
    assert [(c["key"], c["label"]) for c in request["choices"]] == list(PERMISSION_CHOICES)
    assert entry_problem(runtime_request(TS, "r2", "?", request_kind="nope")) is not None
