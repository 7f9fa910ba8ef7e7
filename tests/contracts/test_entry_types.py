"""The entry TypedDicts, read at run time, say which fields are optional as the types do."""

from __future__ import annotations

from linewise_contracts import entries


def test_assistant_entry_lists_its_not_required_fields_as_optional() -> None:
    assert entries.AssistantEntry.__required_keys__ == {"kind", "ts", "text"}
    assert entries.AssistantEntry.__optional_keys__ == {
        "delta",
        "channel",
        "itemId",
        "parentToolUseId",
    }


def test_every_entry_kind_has_an_optional_parent_tool_use_id_and_a_required_kind_and_ts() -> None:
    for name in (
        "AssistantEntry",
        "ThinkingEntry",
        "UserEntry",
        "ToolCallEntry",
        "ToolResultEntry",
        "InitEntry",
        "ResultEntry",
        "StderrEntry",
        "SystemEntry",
        "StdoutEntry",
        "DiffEntry",
    ):
        typed = getattr(entries, name)
        assert {"kind", "ts"} <= typed.__required_keys__, name
        assert "parentToolUseId" in typed.__optional_keys__, name


def test_a_tool_call_requires_its_name_and_input_and_not_its_ids() -> None:
    assert entries.ToolCallEntry.__required_keys__ == {"kind", "ts", "name", "input"}
    assert {"toolUseId", "invocationId", "actionRequestId"} <= (
        entries.ToolCallEntry.__optional_keys__
    )
