"""The HTML page tells the truth and stays bounded: failures, unknowns, tool drawings, big logs."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from linewise.render.html import PAGE_ENTRIES, HtmlRenderer
from linewise.render.html.markup import markdown
from linewise.transcript.privacy import censor_text
from linewise_contracts.summary import RunSummary, Usage
from scaling import assert_linear_time

TS = "2026-03-29T10:00:00.000Z"


def render(entries: list[dict[str, Any]], *, summary: RunSummary | None = None) -> str:
    out = io.StringIO()
    renderer = HtmlRenderer(out, title="run")
    for entry in entries:
        renderer.write(entry)  # type: ignore[arg-type]
    renderer.close(summary=summary)
    return out.getvalue()


def header(page: str) -> str:
    section = page[page.index('<header id="summary"') : page.index("</header>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section))


def call(ident: str, name: str, tool_input: Any, **extra: Any) -> dict[str, Any]:
    entry = {"kind": "tool_call", "ts": TS, "name": name, "input": tool_input, "toolUseId": ident}
    return entry | extra


def result(**changes: Any) -> dict[str, Any]:
    return {
        "kind": "result",
        "ts": TS,
        "text": "",
        "inputTokens": 10,
        "outputTokens": 2,
        "cachedTokens": 0,
        "costUsd": 0,
        "subtype": "success",
        "isError": False,
        "errors": [],
        **changes,
    }


# -- no quadratic time on agent text ---------------------------------------------------


@pytest.mark.parametrize(
    "unit",
    ["**a ", "**kwargs ", "`", "```x\n", "** **", "*" * 7 + " "],
    ids=["bold-openers", "kwargs", "backticks", "fences", "spaced", "stars"],
)
def test_markdown_takes_linear_time(unit: str) -> None:
    assert_linear_time(lambda n: markdown(unit * n))


def test_markdown_still_draws_bold_code_and_fences() -> None:
    assert markdown("a **b** c **d e** f") == "a <strong>b</strong> c <strong>d e</strong> f"
    assert markdown("**a **b**") == "<strong>a **b</strong>"
    assert markdown("** not bold **") == "** not bold **"
    assert markdown("x `y` z") == "x <code>y</code> z"
    assert markdown("```py\nprint()\n```") == '<pre class="code">print()</pre>'


def test_html_rendering_of_bold_runs_takes_linear_time() -> None:
    def page(n: int) -> str:
        return render([{"kind": "assistant", "ts": TS, "text": "**a " * n}])

    assert_linear_time(page, start=2000)


def test_censoring_takes_linear_time() -> None:
    assert_linear_time(lambda n: censor_text("/home/" * n + "/Users/x" * n))


# -- what one entry may cost --------------------------------------------------------------


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"k": [value]}
    return value


def test_deeply_nested_tool_input_does_not_balloon_the_page() -> None:
    deep = _deep(400)
    empty = len(render([call("a", "Bash", {"command": "ls"})]))
    page = render([call("a", "Bash", {"command": "ls", "nested": deep})])
    compact = len(repr(deep))
    assert len(page) - empty < 12 * compact  # pretty-printing would be ~400x
    assert "nested" in page and "leaf" in page


def test_a_huge_text_is_shown_up_to_a_limit_and_says_what_was_left_out() -> None:
    huge = "y" * (300 * 1024)
    page = render([{"kind": "stdout", "ts": TS, "text": huge}])
    assert len(page) < 300 * 1024
    assert f"{300 * 1024 - 256 * 1024:,} more characters not shown" in page
    assert "linewise render -f jsonl shows all of it" in page


# -- failures, unknowns and labels ----------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"isError": True},
        {"subtype": "error_max_turns"},
        {"subtype": "turn.failed"},
        {"errors": ["boom"]},
    ],
)
def test_a_failed_result_gets_a_red_badge_and_a_failed_header(changes: dict[str, Any]) -> None:
    page = render([result(**changes)])
    assert 'class="summary failed"' in page
    assert 'class="entry result is-error"' in page
    assert '<span class="err-mark">failed</span>' in page


def test_a_successful_result_is_green() -> None:
    page = render([result()])
    assert 'class="summary finished"' in page and '<span class="err-mark">' not in page


def test_tokens_are_labelled_and_an_unreported_cost_is_unknown() -> None:
    page = render([result()])
    assert "this result, in the CLI&#x27;s own counts: input 10" in page or (
        "this result, in the CLI's own counts: input 10" in page
    )
    shown = header(page)
    assert "Cost unknown" in shown and "$0" not in page
    # no run summary: the result's counts, labelled as the CLI's own (not the vocabulary)
    assert "the CLI's own count" in shown and "tokens and cost: from the result" in shown


def test_a_run_summary_fills_the_header_and_never_invents() -> None:
    summary = RunSummary(
        outcome="cut off",
        complete=False,
        usage=Usage(input_tokens=10386, output_tokens=1206, cached_tokens=3),
    )
    page = render([result(inputTokens=1686, outputTokens=914)], summary=summary)
    shown = header(page)
    assert "10,386" in shown and "1,206" in shown and "1,686" not in shown
    assert "tokens and cost: whole run" in shown and "Cost unknown" in shown
    assert 'class="summary failed"' in page  # it never finished
    assert "model not reported" in shown  # no init, no model in the summary: not invented
    priced = render(
        [],
        summary=RunSummary(
            outcome="success", complete=True, cost_usd=0.5, model="claude-haiku-4-5"
        ),
    )
    assert "$0.5000" in header(priced) and "claude-haiku-4-5" in header(priced)


def test_stderr_has_one_badge() -> None:
    page = render([{"kind": "stderr", "ts": TS, "text": "warning"}])
    assert page.count(">stderr</span>") == 1 and '<span class="err-mark">' not in page


# -- tool drawings -------------------------------------------------------------------------


def test_todo_write_is_a_checklist() -> None:
    todos = [
        {"content": "Read the spec", "status": "completed", "activeForm": "Reading"},
        {"content": "Write <tests>", "status": "in_progress", "activeForm": "Writing"},
        {"content": "Ship", "status": "pending", "activeForm": "Shipping"},
    ]
    page = render([call("t", "TodoWrite", {"todos": todos})])
    assert '<span class="preview">to-do list · 1 of 3 done</span>' in page
    assert '<li class="todo completed"><span class="check">☑</span>Read the spec</li>' in page
    assert (
        '<li class="todo in_progress"><span class="check">◐</span>Write &lt;tests&gt;</li>' in page
    )
    assert '<li class="todo pending"><span class="check">☐</span>Ship</li>' in page


def test_a_codex_todo_list_is_a_checklist() -> None:
    text = "to-do list (1/2 done)\n[x] inspect\n[ ] fix"
    page = render([{"kind": "system", "ts": TS, "text": text}])
    assert '<ul class="checklist">' in page and "☑</span>inspect" in page and "☐</span>fix" in page


def test_edits_are_coloured_diffs() -> None:
    page = render(
        [
            call(
                "e", "Edit", {"file_path": "/r/a.py", "old_string": "x = 1", "new_string": "x = 2"}
            ),
            call(
                "m",
                "MultiEdit",
                {
                    "file_path": "/r/b.py",
                    "edits": [
                        {"old_string": "a", "new_string": "b"},
                        {"old_string": "c", "new_string": "d"},
                    ],
                },
            ),
        ]
    )
    assert '<span class="d-file_header">/r/a.py\n</span>' in page
    assert '<span class="d-remove">-x = 1\n</span><span class="d-add">+x = 2\n</span>' in page
    assert '<span class="d-hunk">@@\n</span>' in page and '<span class="d-add">+d\n</span>' in page


def test_apply_patch_is_a_coloured_diff() -> None:
    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n-old\n+new\n*** End Patch"
    page = render([call("p", "apply_patch", {"input": patch})])
    assert '<span class="d-remove">-old\n</span>' in page
    assert '<span class="d-add">+new\n</span>' in page


def test_long_hook_output_folds_open_instead_of_being_clipped() -> None:
    hook = "hook Stop output\n" + "\n".join(f"line {n}" for n in range(200))
    page = render([{"kind": "system", "ts": TS, "text": hook}])
    assert '<details class="entry system long"' in page
    assert "line 199" in page and "201 lines" in page


# -- big logs and subagents ------------------------------------------------------------------


def test_a_long_transcript_comes_in_template_pages() -> None:
    entries = [{"kind": "assistant", "ts": TS, "text": f"m{n}"} for n in range(PAGE_ENTRIES * 3)]
    page = render(entries)
    assert page.count('<template class="page">') == 2
    first = page[: page.index('<template class="page">')]
    assert first.count('class="entry assistant"') == PAGE_ENTRIES
    assert page.count("</template>") == 3  # two pages and the error count


def test_subagent_entries_point_at_their_call_card() -> None:
    page = render(
        [
            call("task", "Task", {"subagent_type": "Explore", "description": "map it"}),
            {"kind": "assistant", "ts": TS, "text": "inside", "parentToolUseId": "task"},
            {"kind": "assistant", "ts": TS, "text": "unknown parent", "parentToolUseId": "zz"},
        ]
    )
    assert '<details class="subagent" open>' in page and "Explore: map it" in page
    assert 'id="e2" data-parent="e1"' in page
    assert 'id="e3" data-orphan-parent=""' in page


def test_the_header_shows_the_runs_date_and_time_span_from_its_entries_own_times() -> None:
    first = {"kind": "assistant", "ts": "2025-09-24T19:22:20.000Z", "text": "start"}
    page = render([first, result(ts="2025-09-25T02:10:21.000Z")])
    assert "When 2025-09-24 19:22 → 2025-09-25 02:10 UTC first to last entry" in header(page)


def test_one_time_for_every_entry_is_not_shown_as_the_runs_date() -> None:
    # Entries without their own times all carry the file's modification time: no date is made up.
    page = render([{"kind": "assistant", "ts": TS, "text": "hi"}, result()])
    assert "When " not in header(page)
