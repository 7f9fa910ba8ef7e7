"""accepts_positional: the contract's check of a plugin's function shapes, for C functions too.

Compiled parsers (mypyc) export C functions; their plain text signatures are
read directly, and every answer must be the one inspect.signature gives.
"""

from __future__ import annotations

import inspect
import math
import operator
from typing import Any

import pytest
from linewise_contracts.exports import accepts_positional

BUILTINS: list[Any] = [
    len,
    divmod,
    abs,
    "".join,
    [].append,
    {}.get,
    math.hypot,
    max,
    operator.add,
    dict.fromkeys,
    str.upper,
    print,
    sorted,
]


def _by_inspect(function: Any, arguments: int) -> bool | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*range(arguments))
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("function", BUILTINS, ids=lambda f: getattr(f, "__qualname__", repr(f)))
@pytest.mark.parametrize("arguments", [0, 1, 2, 3])
def test_a_c_function_is_judged_as_inspect_judges_it(function: Any, arguments: int) -> None:
    assert accepts_positional(function, arguments) is _by_inspect(function, arguments)


def test_python_functions_and_methods_are_judged_by_their_signature() -> None:
    class Parser:
        def parse_line(self, line: str, ts: str) -> list[object]:
            return []

        def reset(self) -> None:
            pass

    parser = Parser()
    assert accepts_positional(parser.parse_line, 2) is True
    assert accepts_positional(parser.parse_line, 1) is False
    assert accepts_positional(parser.reset, 0) is True
    assert accepts_positional(lambda *lines: None, 5) is True
