"""Which models each Cursor format says a run can use: the CLI's, or (Cloud) none stated."""

from __future__ import annotations

from linewise import Registry
from linewise_cursor import agent, models


def test_cursor_cloud_states_no_models_while_the_cli_formats_list_the_cursor_clis() -> None:
    assert models and agent.cursor.models == models
    assert agent.cursor_session.models == models
    # The account decides a cloud agent's models; the CLI's list is not theirs.
    assert agent.cursor_cloud.models == []


def test_the_host_lists_cursor_clouds_models_as_the_format_states_them() -> None:
    registry = Registry()
    assert registry.load("cursor_cloud").models == ()
    assert [dict(model) for model in registry.load("cursor").models] == models
