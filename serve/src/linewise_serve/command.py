"""``linewise serve``: the command the host finds through the ``linewise.commands`` entry point."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any

__all__ = ["register", "required_token", "run"]


def register(commands: Any) -> None:
    """Add the ``serve`` subcommand (called by the host's CLI with its subparsers)."""
    serve = commands.add_parser(
        "serve",
        help="browse, search and follow your sessions in a local web app",
        description="Serve the sessions the agent CLIs keep on this machine (and the log "
        "folders given) as a local web app: the list, full-text search, transcripts that "
        "update as the session is written, and usage charts. Bound to 127.0.0.1 unless "
        "--host says otherwise; beyond loopback every request needs a token.",
    )
    serve.add_argument(
        "folders",
        nargs="*",
        type=Path,
        metavar="FOLDER",
        help="folders of logs or session files to serve too (walked, sorted)",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    serve.add_argument(
        "--token",
        help="a token every request must carry; beyond loopback one is made and printed "
        "once when none is given",
    )
    serve.add_argument(
        "--no-stores",
        action="store_true",
        help="serve only the folders given, not the CLIs' session stores",
    )
    serve.set_defaults(handler=run)


def required_token(host: str, given: str | None) -> str | None:
    """The token requests must carry: the one given, else on loopback none, else a new one
    (printed once by the command)."""
    from linewise_serve.security import is_loopback

    if given is not None or is_loopback(host):
        return given
    return secrets.token_urlsafe(24)


def run(args: argparse.Namespace, registry: Any) -> int:
    """Serve until interrupted."""
    import uvicorn

    from linewise_serve.app import ServeConfig, make_app
    from linewise_serve.index import SessionIndex
    from linewise_serve.search import SearchIndex

    for folder in args.folders:
        if not folder.exists():
            sys.stderr.write(f"linewise: error: no such folder: {folder}\n")
            return 2
    token = required_token(args.host, args.token)
    index = SessionIndex(folders=args.folders, registry=registry, stores=not args.no_stores)
    search = SearchIndex.open_default()
    app = make_app(index, ServeConfig(host=args.host, token=token), search=search)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown}:{args.port}/" + (f"?token={token}" if token else "")
    sys.stderr.write(
        f"linewise serve: {address}\n"
        + (
            "(the token is printed only this once; requests without it are refused)\n"
            if token and args.token is None
            else ""
        )
        + "Ctrl-C stops it.\n"
    )
    sys.stderr.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    search.close()
    return 0
