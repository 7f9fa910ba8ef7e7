"""Estimated costs in every view of a run: summarize, sessions, the text footer, the HTML header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from linewise import Registry
from linewise.cli import main
from support import FakeSite
from usage_fakes import install_meter, message, write_meter

pytest.importorskip("genai_prices", reason="the price table (linewise[prices]) is not installed")

# claude-sonnet-4-5's list prices per million tokens: input, cache read, cache write, output.
TOKENS = {"in": 1_000, "cr": 200_000, "cw": 10_000, "out": 3_000}
ESTIMATE = (1_000 * 3.00 + 200_000 * 0.30 + 10_000 * 3.75 + 3_000 * 15.00) / 1e6


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


def _unpriced(home: Path) -> Path:
    return write_meter(
        home, "p", "est", [message("2026-01-05T10:00:00Z", "claude-sonnet-4-5", **TOKENS)]
    )


def _reported(home: Path) -> Path:
    return write_meter(
        home,
        "p",
        "rep",
        [message("2026-01-05T10:00:00Z", "claude-sonnet-4-5", cost=0.5, **TOKENS)],
    )


def test_summarize_json_says_the_cost_is_estimated_and_from_which_table(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "summarize", str(_unpriced(home)), "--json")

    (run,) = json.loads(out)["runs"]
    assert code == 0
    assert run["summary"]["costUsd"] == pytest.approx(ESTIMATE)
    assert run["summary"]["costSource"] == run["costSource"] == "estimated"
    assert run["priceData"].startswith("genai-prices ")
    assert json.loads(out)["totals"]["costSource"] == "estimated"


def test_summarize_keeps_a_reported_cost_and_marks_it_reported(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "summarize", str(_reported(home)), str(_unpriced(home)), "--json")

    reported, estimated = json.loads(out)["runs"]
    assert code == 0
    assert (reported["summary"]["costUsd"], reported["costSource"]) == (0.5, "reported")
    assert reported["priceData"] is None
    totals = json.loads(out)["totals"]
    assert totals["costSource"] == "mixed"
    assert totals["costUsd"] == pytest.approx(0.5 + ESTIMATE)
    assert totals["estimatedCostUsd"] == pytest.approx(ESTIMATE)
    assert estimated["costSource"] == "estimated"


def test_the_summarize_table_marks_estimates(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "summarize", str(_unpriced(home)))

    assert code == 0
    assert f"${ESTIMATE:.4f} est" in out
    assert "estimated from list prices (genai-prices" in out


def test_the_text_footer_and_html_header_mark_the_estimate(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _unpriced(home)

    code, text, _ = _run(capsys, "render", str(path), "--color", "never")
    assert code == 0
    assert f"cost ${ESTIMATE:.4f} (estimated from list prices, genai-prices" in text

    page = tmp_path / "run.html"
    code, _, _ = _run(capsys, "render", str(path), "-f", "html", "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert code == 0
    assert "estimated from list prices" in html
    assert '"costSource": "estimated"' in html or '"costSource":"estimated"' in html


def test_sessions_mark_estimated_costs_in_the_table_and_json(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _unpriced(home)
    _reported(home)

    code, out, _ = _run(capsys, "sessions")
    rows = {line.split()[3]: line for line in out.splitlines()[1:3]}  # after date and time, CLI
    assert code == 0
    assert f"${ESTIMATE:.4f} est" in rows["est"]
    assert "$0.5000 " in rows["rep"] and "est" not in rows["rep"].split("$0.5000")[1][:4]
    assert "estimated from list prices (genai-prices" in out

    code, out, _ = _run(capsys, "sessions", "--json")
    found = {row["id"]: row for row in json.loads(out)["sessions"]}
    assert found["est"]["costSource"] == "estimated"
    assert found["est"]["priceData"].startswith("genai-prices ")
    assert found["est"]["modelCosts"]["claude-sonnet-4-5"] == pytest.approx(ESTIMATE)
    assert found["rep"]["costSource"] == "reported"
    assert found["est"]["tokenUsage"]["cacheWrite"] == 10_000


def test_the_export_says_where_each_cost_came_from(fake_site: FakeSite, home: Path) -> None:
    pytest.importorskip("pyarrow", reason="the export extra is not installed")
    from linewise.export import export_file

    registry = Registry(entry_points=fake_site.entry_points())

    estimated = export_file(str(_unpriced(home)), registry=registry).run
    reported = export_file(str(_reported(home)), registry=registry).run

    assert estimated["cost_usd"] == pytest.approx(ESTIMATE)
    assert estimated["cost_source"] == "estimated"
    assert estimated["price_data"].startswith("genai-prices ")
    assert (reported["cost_usd"], reported["cost_source"], reported["price_data"]) == (
        0.5,
        "reported",
        None,
    )


def test_a_summarize_total_that_leaves_out_unknown_costs_says_so(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = write_meter(
        home, "p", "local", [message("2026-01-05T11:00:00Z", "my-local-7b", **{"in": 5, "out": 5})]
    )

    code, out, _ = _run(capsys, "summarize", str(_unpriced(home)), str(local))

    total = next(line for line in out.splitlines() if line.startswith("TOTAL"))
    assert code == 0
    assert f"≥${ESTIMATE:.4f} est" in total
    assert "1 runs' cost is unknown" in out.splitlines()[-1]
