"""Checks that a plugin's exports have the shapes the contract names (used by host and checks)."""

from __future__ import annotations

from collections.abc import Callable
from types import BuiltinFunctionType

from linewise_contracts.protocols import CREATE_STDOUT_PARSER, PARSE_STDOUT_LINE

__all__ = ["accepts_positional", "describe_error", "exports_problem", "parser_problem"]


def describe_error(error: BaseException) -> str:
    """``Type: message``, or just ``Type`` when the message is empty."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _plain_text_signature(function: object) -> list[str] | None:
    """The parameters of a C function whose text signature has only required positional
    ones (as mypyc writes them: ``($self, line, ts)``), bound ones left out; else None.

    inspect.signature reads such a signature with the tokenize module, whose first use
    compiles a large regular expression: 5-10 ms of every start-up of a compiled parser.
    """
    if not isinstance(function, BuiltinFunctionType):
        return None
    text = getattr(function, "__text_signature__", None)
    if not isinstance(text, str) or not (text.startswith("(") and text.endswith(")")):
        return None
    names = [name.strip() for name in text[1:-1].split(",")]
    names = [name for name in names if name not in ("", "/")]
    if names and names[0].startswith("$"):
        if getattr(function, "__self__", None) is None:
            return None  # unbound: inspect decides what the $ parameter means
        names = names[1:]
    if not all(name.isidentifier() for name in names):
        return None  # defaults, *args, keyword-only markers: inspect reads those
    return names


def accepts_positional(function: object, arguments: int) -> bool | None:
    """Whether ``function`` accepts ``arguments`` positional arguments (None: cannot tell)."""
    plain = _plain_text_signature(function)
    if plain is not None:
        return len(plain) == arguments
    import inspect

    try:
        signature = inspect.signature(function)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*range(arguments))
    except TypeError:
        return False
    return True


def exports_problem(factory: object, static: object) -> tuple[str, str] | None:
    """What is wrong with a plugin's ``create_stdout_parser`` / ``parse_stdout_line``, with a hint.

    None when at least one is exported and each exported one is callable with
    the contract's arguments.
    """
    if factory is None and static is None:
        return (
            f"exports neither {PARSE_STDOUT_LINE} nor {CREATE_STDOUT_PARSER}",
            "export at least one of them from the entry point's module or object",
        )
    for name, value, arguments in (
        (CREATE_STDOUT_PARSER, factory, 0),
        (PARSE_STDOUT_LINE, static, 2),
    ):
        if value is None:
            continue
        if not callable(value):
            return (f"{name} is a {type(value).__name__}, not callable", f"make {name} a function")
        if accepts_positional(value, arguments) is False:
            wanted = "()" if arguments == 0 else "(line, ts)"
            return (
                f"{name} cannot be called as {name}{wanted}",
                f"give {name} the signature {wanted}",
            )
    return None


def parser_problem(
    factory: Callable[[], object],
) -> tuple[str, str, BaseException | None] | None:
    """Create one parser to check its shape, so a broken factory fails at load, not per line."""
    try:
        parser = factory()
    except Exception as error:
        return (
            f"{CREATE_STDOUT_PARSER}() raised {describe_error(error)}",
            f"{CREATE_STDOUT_PARSER}() must return a parser without side effects or errors",
            error,
        )
    for name, arguments in (("parse_line", 2), ("reset", 0)):
        method = getattr(parser, name, None)
        if not callable(method):
            return (
                f"{CREATE_STDOUT_PARSER}() returned a {type(parser).__name__} without {name}()",
                "return an object with parse_line(line, ts) and reset()",
                None,
            )
        if accepts_positional(method, arguments) is False:
            wanted = "(line, ts)" if arguments else "()"
            return (
                f"the parser's {name} cannot be called as {name}{wanted}",
                f"give {name} the signature {wanted}",
                None,
            )
    return None
