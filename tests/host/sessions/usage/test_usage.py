"""``linewise usage``: reports by period, session, model and project, billing blocks, totals."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from linewise import Registry
from linewise.cli import main
from linewise.sessions.usage import UsageRecord, billing_blocks, usage_report
from linewise_contracts.usage import TokenUsage
from support import FakeSite
from usage_fakes import install_meter, message, write_meter


def tokens(uncached: int, read: int = 0, write: int = 0, out: int = 0) -> TokenUsage:
    return TokenUsage(uncached_input=uncached, cache_read=read, cache_write=write, output=out)


def record(
    session: str,
    started: str,
    ended: str | None = None,
    *,
    usage: dict[str, TokenUsage] | None = None,
    cost: float | None = None,
    source: str | None = None,
    costs: dict[str, float] | None = None,
    project: str = "/work/p",
    cli: str = "claude",
) -> UsageRecord:
    model_usage = usage if usage is not None else {"claude-sonnet-4-5": tokens(10, out=5)}
    total = TokenUsage()
    for one in model_usage.values():
        total = total + one
    return UsageRecord(
        cli=cli,
        session=session,
        path=f"/store/{session}.jsonl",
        project=project,
        started=started,
        ended=ended or started,
        tokens=total,
        model_usage=model_usage,
        cost_usd=cost,
        cost_source=source,
        model_costs=costs or {},
    )


def test_daily_rows_sum_each_token_kind_and_the_totals_row_sums_every_session() -> None:
    records = [
        record(
            "a",
            "2026-01-01T09:00:00.000Z",
            usage={"m": tokens(1, 2, 3, 4)},
            cost=1.0,
            source="reported",
        ),
        record(
            "b",
            "2026-01-01T23:59:00.000Z",
            usage={"m": tokens(10, 20, 30, 40)},
            cost=2.0,
            source="estimated",
            costs={"m": 2.0},
        ),
        record(
            "c",
            "2026-01-02T00:00:00.000Z",
            usage={"m": tokens(100, 0, 0, 1)},
            cost=0.5,
            source="reported",
        ),
    ]

    report = usage_report(records, "daily")

    assert [key for key, _ in report.rows] == ["2026-01-01", "2026-01-02"]
    first = report.rows[0][1]
    assert first.tokens == tokens(11, 22, 33, 44)
    assert (first.sessions, first.cost_usd, first.cost_source) == (2, 3.0, "mixed")
    assert (first.reported_usd, first.estimated_usd) == (1.0, 2.0)
    assert report.total.tokens == tokens(111, 22, 33, 45)
    assert report.total.cost_usd == 3.5 and report.total.sessions == 3


def test_weeks_start_on_monday_and_months_are_calendar_months() -> None:
    records = [
        record("sun", "2026-03-01T12:00:00Z"),  # a Sunday: the week of Monday 23 February
        record("mon", "2026-03-02T12:00:00Z"),
        record("apr", "2026-04-01T00:00:00Z"),
    ]

    weekly = [key for key, _ in usage_report(records, "weekly").rows]
    monthly = [key for key, _ in usage_report(records, "monthly").rows]

    assert weekly == ["2026-02-23", "2026-03-02", "2026-03-30"]
    assert monthly == ["2026-03", "2026-04"]


def test_unknown_token_counts_and_costs_stay_unknown_never_zero() -> None:
    codex = record(
        "x",
        "2026-01-01T00:00:00Z",
        cli="codex",
        usage={"gpt-5": TokenUsage(uncached_input=5, cache_read=7, output=3)},
    )
    silent = record("y", "2026-01-01T01:00:00Z", usage={})

    row = usage_report([codex, silent], "daily").rows[0][1]

    assert row.tokens.cache_write is None  # no session reported cache writes
    assert row.tokens.uncached_input == 5
    assert row.cost_usd is None and row.cost_source is None
    assert row.unknown_cost == 2  # neither session's cost is known
    assert row.to_json()["costUsd"] is None


def test_sessions_dated_by_their_file_time_are_counted_in_each_row_and_model() -> None:
    """A session whose records carry no time is filed under its file's date, and says so."""
    timed = record("a", "2026-01-01T09:00:00.000Z")
    undated = replace(record("b", "2026-01-01T10:00:00.000Z"), file_dated=True)
    report = usage_report([timed, undated], "daily")
    ((key, row),) = report.rows
    assert (key, row.sessions, row.file_dated) == ("2026-01-01", 2, 1)
    assert row.to_json()["sessionsDatedByFileTime"] == 1
    assert row.models["claude-sonnet-4-5"].file_dated == 1
    assert report.total.to_json()["sessionsDatedByFileTime"] == 1


def test_the_model_report_gives_each_model_its_own_tokens_and_cost() -> None:
    mixed = record(
        "m",
        "2026-01-01T00:00:00Z",
        usage={"claude-opus-4-1": tokens(1, out=1), "claude-haiku-4-5": tokens(9, out=9)},
        cost=0.3,
        source="estimated",
        costs={"claude-opus-4-1": 0.1, "claude-haiku-4-5": 0.2},
    )
    reported = record(
        "r",
        "2026-01-02T00:00:00Z",
        usage={"claude-opus-4-1": tokens(5)},
        cost=1.0,
        source="reported",
    )

    rows = dict(usage_report([mixed, reported], "model").rows)

    assert set(rows) == {"claude-opus-4-1", "claude-haiku-4-5"}
    assert rows["claude-opus-4-1"].tokens == tokens(6, out=1)
    assert rows["claude-opus-4-1"].sessions == 2
    assert rows["claude-opus-4-1"].cost_usd == pytest.approx(1.1)
    assert rows["claude-haiku-4-5"].cost_usd == pytest.approx(0.2)
    assert usage_report([mixed, reported], "model").total.sessions == 2


def test_a_reported_cost_of_several_models_is_not_split_between_them() -> None:
    both = record(
        "b",
        "2026-01-01T00:00:00Z",
        usage={"claude-opus-4-1": tokens(1), "claude-haiku-4-5": tokens(2)},
        cost=0.9,
        source="reported",
    )

    rows = dict(usage_report([both], "model").rows)

    assert rows["claude-opus-4-1"].cost_usd is None
    assert rows["claude-opus-4-1"].unknown_cost == 1
    assert usage_report([both], "daily").total.cost_usd == 0.9


def test_projects_and_sessions_are_rows_of_their_own() -> None:
    records = [
        record("a", "2026-01-01T00:00:00Z", project="/work/alpha"),
        record("b", "2026-01-02T00:00:00Z", project="/work/alpha"),
        record("c", "2026-01-03T00:00:00Z", project="/work/beta"),
    ]

    projects = {key: row.sessions for key, row in usage_report(records, "project").rows}
    sessions = [key for key, _ in usage_report(records, "session").rows]

    assert projects == {"/work/alpha": 2, "/work/beta": 1}
    assert sessions == ["claude a", "claude b", "claude c"]


NOW = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


def test_a_billing_block_starts_at_the_first_activity_hour_and_lasts_five_hours() -> None:
    records = [
        record("a", "2026-01-01T09:17:00Z", "2026-01-01T09:40:00Z"),
        record("b", "2026-01-01T14:00:00Z"),  # within 09:00 + 5 h
        record("c", "2026-01-01T14:30:00Z"),  # after 14:00: a new block, from 14:00
    ]

    blocks = billing_blocks(records, NOW)

    assert [block.start.isoformat() for block in blocks] == [
        "2026-01-01T09:00:00+00:00",
        "2026-01-01T14:00:00+00:00",
    ]
    assert [block.totals.sessions for block in blocks] == [2, 1]
    assert blocks[0].end.isoformat() == "2026-01-01T14:00:00+00:00"
    assert not any(block.active for block in blocks)


def test_a_gap_of_more_than_five_hours_starts_a_new_block() -> None:
    records = [
        record("a", "2026-01-01T00:10:00Z", "2026-01-01T00:20:00Z"),
        record("b", "2026-01-01T05:30:00Z"),  # 5 h 10 m after the last activity
    ]

    blocks = billing_blocks(records, NOW)

    assert [block.start.hour for block in blocks] == [0, 5]


def test_the_active_block_has_a_burn_rate_and_a_projection() -> None:
    records = [
        record(
            "a",
            "2026-01-02T10:00:00Z",
            "2026-01-02T10:30:00Z",
            usage={"m": tokens(3_000)},
            cost=0.6,
            source="estimated",
            costs={"m": 0.6},
        ),
        record(
            "b",
            "2026-01-02T11:00:00Z",
            "2026-01-02T11:00:00Z",
            usage={"m": tokens(3_000)},
            cost=0.6,
            source="estimated",
            costs={"m": 0.6},
        ),
    ]

    (block,) = billing_blocks(records, NOW)
    per_minute, per_hour = block.burn_rate()
    projected_tokens, projected_cost = block.projection()

    assert block.active
    assert per_minute == pytest.approx(6_000 / 60)  # 6,000 tokens between 10:00 and 11:00
    assert per_hour == pytest.approx(1.2)
    # Four hours left at that rate (until 15:00).
    assert projected_tokens == 6_000 + 100 * 240
    assert projected_cost == pytest.approx(1.2 + 1.2 * 4)
    data = block.to_json(NOW)
    assert data["active"] is True and data["minutesLeft"] == 180
    assert data["burnRate"]["tokensPerMinute"] == pytest.approx(100)


# The command, over a fake CLI's sessions on disk.


@pytest.fixture
def home(fake_site: FakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    import linewise.plugins.registry

    install_meter(fake_site)
    monkeypatch.setattr(
        linewise.plugins.registry, "_default", Registry(entry_points=fake_site.entry_points())
    )
    found = tmp_path / "home"
    found.mkdir()
    monkeypatch.setenv("HOME", str(found))
    monkeypatch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
    return found


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _sessions(home: Path) -> None:
    write_meter(
        home,
        "alpha",
        "s1",
        [
            message(
                "2026-01-05T10:00:00Z",
                "claude-sonnet-4-5",
                **{"in": 100, "cr": 1_000, "cw": 50, "out": 20},
            ),
            message(
                "2026-01-05T10:05:00Z", "claude-haiku-4-5", **{"in": 10, "cr": 0, "cw": 0, "out": 2}
            ),
        ],
    )
    write_meter(
        home,
        "beta",
        "s2",
        [
            message(
                "2026-01-06T08:00:00Z",
                "claude-sonnet-4-5",
                cost=0.25,
                **{"in": 1, "cr": 2, "cw": 3, "out": 4},
            ),
        ],
    )
    write_meter(
        home,
        "beta",
        "s3",
        [
            message("2026-01-06T09:00:00Z", "local-llama-3b", **{"in": 7, "out": 7}),
        ],
    )


def test_the_daily_json_report_marks_estimates_and_names_unpriced_models(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("genai_prices", reason="the price table is not installed")
    _sessions(home)

    code, out, err = _run(capsys, "usage", "--json")

    assert code == 0
    data = json.loads(out)
    assert data["report"] == "daily"
    days = {row["key"]: row for row in data["rows"]}
    assert set(days) == {"2026-01-05", "2026-01-06"}
    first = days["2026-01-05"]
    assert first["costSource"] == "estimated"
    sonnet = 100 * 3.00 + 1_000 * 0.30 + 50 * 3.75 + 20 * 15.00
    haiku = 10 * 1.00 + 2 * 5.00
    assert first["costUsd"] == pytest.approx((sonnet + haiku) / 1e6)
    assert first["tokenUsage"] == {
        "uncachedInput": 110,
        "cacheRead": 1_000,
        "cacheWrite": 50,
        "output": 22,
        "reasoning": None,
    }
    assert set(first["models"]) == {"claude-sonnet-4-5", "claude-haiku-4-5"}
    second = days["2026-01-06"]
    assert second["costSource"] == "reported"  # the local model's cost is unknown, not 0
    assert second["costUsd"] == 0.25 and second["sessionsWithUnknownCost"] == 1
    assert second["tokenUsage"]["cacheWrite"] == 3
    assert data["unpricedModels"] == ["local-llama-3b"]
    assert data["priceData"] and data["priceData"][0].startswith("genai-prices")
    assert data["totals"]["sessions"] == 3
    assert "local-llama-3b" in err


def test_the_table_has_a_totals_row_and_says_what_each_column_counts(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("genai_prices", reason="the price table is not installed")
    _sessions(home)

    code, out, _ = _run(capsys, "usage", "monthly", "--breakdown")

    lines = out.splitlines()
    assert code == 0
    assert lines[0].split()[:4] == ["MONTH", "(UTC)", "SESSIONS", "UNCACHED-IN"]
    assert lines[1].startswith("2026-01") and "≥$" in lines[1] and "mixed" in lines[1]
    assert any(line.strip().startswith("└ claude-haiku-4-5") for line in lines)
    total = next(line for line in lines if line.startswith("TOTAL"))
    assert "3" in total.split()
    assert any("REASONING (a part of OUTPUT)" in line for line in lines)
    assert any("estimated: the CLI recorded no cost" in line for line in lines)


def test_filters_keep_one_cli_project_and_time_range(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sessions(home)

    def sessions(*args: str) -> int:
        code, out, _ = _run(capsys, "usage", "--json", *args)
        assert code == 0
        return int(json.loads(out)["totals"]["sessions"])

    assert sessions("--project", "beta") == 2
    assert sessions("--since", "2026-01-06") == 2
    assert sessions("--until", "2026-01-05") == 1
    assert sessions("--since", "2026-01-06T08:30Z", "--until", "2026-01-06") == 1
    assert sessions("--cli", "meter") == 3
    assert sessions("--cli", "codex") == 0


def test_a_bad_date_is_a_usage_error(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "usage", "--since", "yesterday")

    assert code == 2 and "not a date" in err


def test_log_files_and_folders_given_are_reported_instead_of_the_store(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    path = write_meter(
        logs,
        "x",
        "given",
        [
            message("2026-02-01T00:00:00Z", "claude-sonnet-4-5", cost=1.5, **{"in": 1, "out": 1}),
        ],
    )
    _sessions(home)

    code, out, _ = _run(capsys, "usage", "session", str(path.parent.parent), "--json")

    data = json.loads(out)
    assert code == 0
    assert [row["key"] for row in data["rows"]] == ["meter given"]
    assert data["rows"][0]["costUsd"] == 1.5 and data["rows"][0]["costSource"] == "reported"


def test_a_missing_log_is_an_error_and_the_others_are_still_reported(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_meter(
        tmp_path / "logs",
        "x",
        "given",
        [
            message("2026-02-01T00:00:00Z", "claude-sonnet-4-5", cost=1.5, **{"in": 1, "out": 1}),
        ],
    )

    code, out, err = _run(capsys, "usage", "--json", str(path), str(tmp_path / "nope.jsonl"))

    assert code == 1 and "nope.jsonl" in err
    assert json.loads(out)["totals"]["sessions"] == 1


def test_a_warm_report_reads_the_facts_cache_not_the_files(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _sessions(home)
    _, cold, _ = _run(capsys, "usage", "model", "--json")

    import linewise.sessions._find

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("a cached session was read again")

    monkeypatch.setattr(linewise.sessions._find, "read_facts", unread)
    code, warm, _ = _run(capsys, "usage", "model", "--json")

    assert code == 0 and json.loads(warm)["rows"] == json.loads(cold)["rows"]


def test_blocks_report_lists_blocks_with_their_status(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _sessions(home)

    code, out, _ = _run(capsys, "usage", "blocks")

    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("BLOCK (UTC, 5 h)  STATUS")
    assert lines[1].startswith("2026-01-05 10:00  ended")
    assert lines[2].startswith("2026-01-06 08:00  ended")
    assert any("billing block" in line for line in lines)


def test_a_session_that_reported_no_usage_is_in_no_block() -> None:
    silent = UsageRecord(
        cli="claude",
        session="s",
        path="/store/s.jsonl",
        project=None,
        started="2026-01-02T11:30:00Z",
        ended="2026-01-02T11:30:00Z",
        tokens=TokenUsage(),
        model_usage={},
        cost_usd=None,
        cost_source=None,
    )
    used = record("u", "2026-01-01T08:00:00Z")

    blocks = billing_blocks([silent, used], NOW)

    assert [block.totals.sessions for block in blocks] == [1]
    assert not blocks[0].active


def test_a_file_no_parser_recognises_is_named_and_left_out(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stray = tmp_path / "notes.txt"
    stray.write_text("just some text\n")

    code, out, err = _run(capsys, "usage", str(stray), "--json")

    assert code == 0
    assert json.loads(out)["totals"]["sessions"] == 0
    assert "notes.txt" in err and "left out" in err


def test_two_session_files_with_one_id_are_two_rows_named_by_their_files() -> None:
    first = record("same", "2026-01-01T00:00:00Z")
    other = replace(record("same", "2026-01-02T00:00:00Z"), path="/elsewhere/same.jsonl")

    rows = dict(usage_report([first, other], "session").rows)

    assert set(rows) == {"claude same /store/same.jsonl", "claude same /elsewhere/same.jsonl"}
    assert usage_report([first], "session").rows[0][0] == "claude same"


def test_secret_values_and_user_names_are_masked_in_what_usage_prints(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_meter(home, "hunter2secret", "s9", [message("2026-01-05T10:00:00Z", "m", cost=0.1)])
    monkeypatch.setenv("DEPLOY_TOKEN", "hunter2secret")

    _, table, _ = _run(capsys, "usage", "project")
    _, data, _ = _run(capsys, "usage", "session", "--json")

    assert "hunter2secret" not in table and "hunter2secret" not in data
    assert "/work/***" in table
    assert json.loads(data)["rows"][0]["project"] == "/work/***"
