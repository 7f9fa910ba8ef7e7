"""linewise serve without a browser: Starlette's TestClient against fake homes."""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from linewise import Registry
from linewise_serve.app import make_app
from linewise_serve.index import SessionIndex, session_uid
from linewise_serve.search import SearchIndex
from linewise_serve.security import COOKIE, POLICY
from linewise_serve.usage_page import usage_data
from starlette.testclient import TestClient

Write = Callable[..., Path]
A = "11111111-1111-4111-8111-111111111111"
B = "22222222-2222-4222-8222-222222222222"
C = "33333333-3333-4333-8333-333333333333"


@pytest.fixture
def home(tmp_path: Path, claude_session: Write) -> Path:
    home = tmp_path / "home"
    claude_session(home, A, day="2026-03-01", cwd="/home/ada/alpha", tool_output="zebrafile.txt")
    claude_session(home, B, day="2026-03-02", cwd="/home/ada/alpha", model="claude-opus-4-1")
    claude_session(home, C, day="2026-03-03", cwd="/home/ada/beta", prompt="fix the <b>bug</b>")
    return home


def _index(home: Path, tmp_path: Path, **options: object) -> SessionIndex:
    environ = {"LINEWISE_CACHE_DIR": str(tmp_path / "cache")}
    return SessionIndex(registry=Registry(), environ=environ, home=home, **options)  # type: ignore[arg-type]


def _client(index: SessionIndex, **options: object) -> TestClient:
    app = make_app(index, index_in_background=False, **options)  # type: ignore[arg-type]
    return TestClient(app, base_url="http://127.0.0.1:8765")


def _listed_order(client: TestClient, query: str = "") -> list[str]:
    page = client.get("/" + query).text
    positions = {sid: page.find(f'data-uid="{session_uid_of(client, sid)}"') for sid in (A, B, C)}
    return [sid for sid, at in sorted(positions.items(), key=lambda item: item[1]) if at != -1]


def session_uid_of(client: TestClient, sid: str) -> str:
    index: SessionIndex = client.app.app.state.index  # type: ignore[attr-defined]
    return next(one.uid for one in index.sessions() if one.info.id == sid)


def test_the_list_shows_every_session_newest_first(home: Path, tmp_path: Path) -> None:
    client = _client(_index(home, tmp_path))
    answer = client.get("/")
    assert answer.status_code == 200
    assert _listed_order(client) == [C, B, A]
    assert "3 of 3 sessions" in answer.text
    # Agent text is escaped as the HTML renderer escapes it: never markup.
    assert "fix the &lt;b&gt;bug&lt;/b&gt;" in answer.text and "<b>bug</b>" not in answer.text


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("?cli=claude", [C, B, A]),
        ("?cli=codex", []),
        ("?project=beta", [C]),
        ("?model=opus", [B]),
        ("?since=2026-03-02", [C, B]),
        ("?until=2026-03-01", [A]),
        ("?since=2026-03-02&until=2026-03-02", [B]),
        ("?outcome=completed", [C, B, A]),
        ("?outcome=failed", []),
        ("?project=alpha&model=sonnet", [A]),
    ],
)
def test_filters_keep_sessions_by_cli_project_model_date_and_outcome(
    home: Path, tmp_path: Path, query: str, kept: list[str]
) -> None:
    assert _listed_order(_client(_index(home, tmp_path)), query) == kept


def test_a_filter_date_that_is_not_a_date_says_so(home: Path, tmp_path: Path) -> None:
    answer = _client(_index(home, tmp_path)).get("/?since=yesterday")
    assert answer.status_code == 400
    assert "since: not a date: &#x27;yesterday&#x27;" in answer.text


def test_sessions_of_the_folders_given_are_listed_and_others_named(
    tmp_path: Path, claude_session: Write
) -> None:
    logs = tmp_path / "logs"
    claude_session(logs, A)
    (logs / "notes.bin").write_bytes(b"\x00\x01 not a session\n")
    index = _index(tmp_path / "empty-home", tmp_path, folders=[logs])
    page = _client(index).get("/").text
    assert "1 of 1 sessions" in page
    assert "notes.bin" in page and "not listed" in page


def test_a_session_is_reached_only_through_the_index(home: Path, tmp_path: Path) -> None:
    client = _client(_index(home, tmp_path))
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET", encoding="utf-8")
    for url in (
        "/s/..%2F..%2F..%2Fetc%2Fpasswd",
        f"/s/{secret}",
        "/s/" + "%2F".join(str(secret).split("/")),
        "/static/..%2Fapp.py",
        "/static/../app.py",
        "/static/%2E%2E/__init__.py",
        "/s/0000000000",
    ):
        answer = client.get(url)
        assert answer.status_code == 404, url
        assert "TOP-SECRET" not in answer.text and "import" not in answer.text, url
    assert client.get("/s/unknown/events").status_code == 404


def test_every_response_carries_a_strict_policy(home: Path, tmp_path: Path) -> None:
    client = _client(_index(home, tmp_path))
    uid = session_uid_of(client, A)
    for url in ("/", "/search?q=zebra", "/usage", f"/s/{uid}", "/static/serve.css", "/nowhere"):
        answer = client.get(url)
        policy = answer.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert answer.headers["x-content-type-options"] == "nosniff", url
    assert client.get("/").headers["content-security-policy"] == POLICY
    # The transcript page pins the renderer's inline style and script by hash, and no
    # policy of its own is left in the page to contradict the header.
    transcript = client.get(f"/s/{uid}")
    assert "'sha256-" in transcript.headers["content-security-policy"]
    assert 'http-equiv="Content-Security-Policy"' not in transcript.text


def test_beyond_loopback_every_request_needs_the_token(home: Path, tmp_path: Path) -> None:
    from linewise_serve.app import ServeConfig

    app = make_app(
        _index(home, tmp_path),
        ServeConfig(host="0.0.0.0", token="s3cret"),
        index_in_background=False,
    )
    client = TestClient(app, base_url="http://192.0.2.7:8765")
    for url in ("/", "/usage", "/static/serve.css", "/search?q=x"):
        assert client.get(url).status_code == 401, url
    assert client.get("/?token=wrong").status_code == 401
    assert client.get("/", headers={"Authorization": "Bearer s3cret"}).status_code == 200
    first = client.get("/usage?token=s3cret&period=weekly", follow_redirects=False)
    assert first.status_code == 303
    assert first.headers["location"] == "/usage?period=weekly"  # the token leaves the address
    assert (
        "HttpOnly" in first.headers["set-cookie"]
        and "SameSite=Strict" in first.headers["set-cookie"]
    )
    assert client.get("/usage?period=weekly").status_code == 200  # the cookie carries it now
    stranger = TestClient(app, base_url="http://192.0.2.7:8765", cookies={COOKIE: "wrong"})
    assert stranger.get("/").status_code == 401


def test_on_loopback_only_loopback_host_names_are_answered(home: Path, tmp_path: Path) -> None:
    app = make_app(_index(home, tmp_path), index_in_background=False)
    assert TestClient(app, base_url="http://localhost:8765").get("/").status_code == 200
    # A page elsewhere reaching 127.0.0.1 through a name it controls (DNS rebinding).
    assert TestClient(app, base_url="http://attacker.example:8765").get("/").status_code == 421


def test_the_transcript_page_is_the_renderers_with_the_projects_neighbours(
    home: Path, tmp_path: Path
) -> None:
    client = _client(_index(home, tmp_path))
    a, b, c = (session_uid_of(client, sid) for sid in (A, B, C))
    page = client.get(f"/s/{b}").text
    assert '<main id="transcript">' in page and "zebrafile" not in page
    assert f'href="/s/{a}">previous session of this project' in page
    assert f'href="/s/{a}">' in page and "no next session of this project" in page
    assert f'data-events="/s/{b}/events"' in page
    first = client.get(f"/s/{a}").text
    assert f'href="/s/{b}">next session of this project' in first
    assert "no previous session" in client.get(f"/s/{c}").text  # alone in its project


def test_search_finds_a_tool_result_and_links_to_its_entry(home: Path, tmp_path: Path) -> None:
    client = _client(_index(home, tmp_path))
    client.app.app.state.indexer.catch_up()  # type: ignore[attr-defined]
    page = client.get("/search?q=zebrafile").text
    uid = session_uid_of(client, A)
    assert "1 matching entries" in page
    start = page.index(f'href="/s/{uid}#') + len(f'href="/s/{uid}#')
    anchor = page[start : page.index('"', start)]
    assert "tool-result" in page and "<mark>zebrafile</mark>" in page
    transcript = client.get(f"/s/{uid}").text
    element = transcript[transcript.index(f'id="{anchor}"') :]
    assert "zebrafile.txt" in element[: element.index("</section>")]


def test_search_takes_words_never_query_syntax(home: Path, tmp_path: Path) -> None:
    client = _client(_index(home, tmp_path))
    client.app.app.state.indexer.catch_up()  # type: ignore[attr-defined]
    for text in ('" OR *', "NEAR(a b)", "text:zebra", "^zeb", "-", "'; DROP TABLE elements;--"):
        assert client.get("/search", params={"q": text}).status_code == 200, text
    assert "<mark>" in client.get("/search", params={"q": "zebra"}).text  # prefix of a word
    assert "<mark>" in client.get("/search", params={"q": "LIST the"}).text  # case ignored


def test_search_indexes_a_session_again_only_when_its_file_changes(
    home: Path, tmp_path: Path, claude_session: Write
) -> None:
    index = _index(home, tmp_path)
    search = SearchIndex(tmp_path / "cache" / "serve" / "search.sqlite3")
    assert search.update(index.sessions()) == 3
    assert search.update(index.sessions()) == 0
    path = claude_session(home, A, tool_output="quaggafile.txt")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    index.refresh()
    assert search.update(index.sessions()) == 1
    assert [hit.uid for hit in search.search("quaggafile")] == [
        session_uid(index.get(session_uid_of_index(index, A)).info)
    ]  # type: ignore[union-attr]
    assert search.search("zebrafile") == []  # what the file no longer holds is forgotten


def test_indexing_one_session_again_or_forgetting_it_leaves_every_other_sessions_rows(
    tmp_path: Path, claude_session: Write
) -> None:
    home = tmp_path / "home"
    for number, sid in enumerate((A, B, C)):
        claude_session(home, sid, day=f"2026-03-0{number + 1}", tool_output=f"word{number}x")
    index = _index(home, tmp_path)
    search = SearchIndex(tmp_path / "cache" / "serve" / "search.sqlite3")
    assert search.update(index.sessions()) == 3
    rows = {word: len(search.search(word)) for word in ("word0x", "word1x", "word2x", "list")}
    assert rows["list"] >= 3 and all(rows[f"word{n}x"] == 1 for n in range(3))
    path = claude_session(home, B, day="2026-03-02", tool_output="word1y")  # the middle one
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    index.refresh()
    assert search.update(index.sessions()) == 1
    assert search.search("word1x") == [] and len(search.search("word1y")) == 1
    assert len(search.search("word0x")) == len(search.search("word2x")) == 1
    assert len(search.search("list")) == rows["list"]  # B's rows replaced, no one else's
    for one in index.sessions():
        if one.info.id == A:
            Path(one.info.path).unlink()
    index.refresh()
    search.update(index.sessions())
    assert search.indexed() == 2 and search.search("word0x") == []
    assert len(search.search("word1y")) == len(search.search("word2x")) == 1


def session_uid_of_index(index: SessionIndex, sid: str) -> str:
    return next(one.uid for one in index.sessions() if one.info.id == sid)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_the_search_cache_is_the_users_only(home: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    search = SearchIndex.open_default(environ={"LINEWISE_CACHE_DIR": str(cache)})
    search.update(_index(home, tmp_path).sessions())
    search.close()
    assert stat.S_IMODE((cache / "serve").stat().st_mode) == 0o700
    for file in (cache / "serve").iterdir():
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def _usage_json(home: Path, tmp_path: Path, report: str) -> dict[str, object]:
    from linewise.cli import main

    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("LINEWISE_CACHE_DIR", str(tmp_path / "cache"))
        for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_DIR", "XDG_DATA_HOME"):
            patch.delenv(name, raising=False)
        with redirect_stdout(out):
            assert main(["usage", report, "--json"]) == 0
    data: dict[str, object] = json.loads(out.getvalue())
    return data


@pytest.mark.parametrize("period", ["daily", "weekly", "monthly"])
def test_usage_figures_are_the_usage_commands(home: Path, tmp_path: Path, period: str) -> None:
    expected = _usage_json(home, tmp_path, period)
    data = usage_data(_index(home, tmp_path).sessions(), period, "model")
    assert data["rows"] == expected["rows"]
    assert data["total"] == expected["totals"]


def test_usage_page_draws_each_day_and_never_an_unknown_as_zero(home: Path, tmp_path: Path) -> None:
    folder = home / ".claude" / "projects" / "-home-ada-gamma"
    folder.mkdir(parents=True)
    record = {
        "type": "user",
        "sessionId": "44444444-4444-4444-8444-444444444444",
        "cwd": "/home/ada/gamma",
        "timestamp": "2026-03-05T10:00:00.000Z",
        "message": {"role": "user", "content": "hello"},
    }
    (folder / "44444444-4444-4444-8444-444444444444.jsonl").write_text(json.dumps(record) + "\n")
    page = _client(_index(home, tmp_path)).get("/usage").text
    chart = page[page.index('id="tokens-chart"') : page.index("</svg>")]
    for day in ("2026-03-01", "2026-03-02", "2026-03-03"):
        assert f'<desc class="x_label">{day}</desc>' in chart
    assert '<desc class="x_label">2026-03-05</desc>' not in chart  # unknown: no bar
    assert page.count("<script") == 1 and '<script src="/static/serve.js"' in page
    assert "style=" not in page and "<style" not in page
    table = page[page.index('id="usage-table"') :]
    assert "2026-03-05</td><td class=n>1</td><td class=n>unknown</td>" in table
    assert "(estimated)" in table  # Claude records no cost: priced from list prices, and says so


def test_drawing_a_chart_leaves_plugin_discovery_to_the_standard_library(
    home: Path, tmp_path: Path
) -> None:
    import sys
    from importlib.machinery import PathFinder

    finders = list(sys.meta_path)
    assert _client(_index(home, tmp_path)).get("/usage").status_code == 200
    # pygal imports importlib_metadata, which would take over every later look-up.
    assert "find_distributions" in PathFinder.__dict__
    assert sys.meta_path == finders


def test_a_big_session_comes_in_the_renderers_pages_and_search_reaches_its_last_ones(
    tmp_path: Path,
) -> None:
    from serve_homes import claude_lines

    sid = "88888888-8888-4888-8888-888888888888"
    folder = tmp_path / "home" / ".claude" / "projects" / "-home-ada-big"
    folder.mkdir(parents=True)
    lines: list[str] = []
    for turn in range(400):  # 1,600 records: more top-level entries than one page holds
        output = "farewellmarker" if turn == 399 else f"output {turn}"
        lines += claude_lines(sid, cwd="/home/ada/big", start=turn * 4, tool_output=output)
    (folder / f"{sid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    client = _client(_index(tmp_path / "home", tmp_path))
    client.app.app.state.indexer.catch_up()  # type: ignore[attr-defined]
    uid = session_uid_of(client, sid)
    page = client.get(f"/s/{uid}").text
    first_page_end = page.index('<template class="page">')
    hits = client.get("/search?q=farewellmarker").text
    start = hits.index(f'href="/s/{uid}#') + len(f'href="/s/{uid}#')
    anchor = hits[start : hits.index('"', start)]
    # The hit is on a later page, which the page's script opens when the link names it.
    assert page.index(f'id="{anchor}"') > first_page_end


@pytest.mark.parametrize(
    ("host", "given", "needed"),
    [
        ("127.0.0.1", None, False),
        ("localhost", None, False),
        ("::1", None, False),
        ("127.0.0.1", "mine", True),
        ("0.0.0.0", None, True),
        ("192.168.1.20", None, True),
        ("::", None, True),
        ("myhost.lan", "mine", True),
    ],
)
def test_beyond_loopback_a_token_is_always_required(
    host: str, given: str | None, needed: bool
) -> None:
    from linewise_serve.command import required_token

    token = required_token(host, given)
    assert (token is not None) is needed
    if given is not None:
        assert token == given
    elif needed:
        assert token is not None and len(token) >= 32 and token != required_token(host, None)
