"""A ui-parser module read as the ecosystem ships it (ES module or CommonJS), made a script.

The engine evaluates plain scripts, so an ES module's top-level ``export``
statements are rewritten: the ``export`` keyword is dropped from declarations
and the exported names are collected into an object at the end. A CommonJS
module runs inside a function given ``module`` and ``exports``. Either way
the script's value is the module's exports object. ``import`` and
``require`` are refused: a ui-parser must have zero runtime imports.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final, Literal, TypeAlias

from linewise.plugins.javascript._lexer import LexError, Token, tokenize

__all__ = ["ModuleError", "ModuleStyle", "ParserModule", "declared_type", "read_module"]

ModuleStyle: TypeAlias = Literal["esm", "commonjs"]

#: The name the rewritten ES module collects its exports in (unlikely in real code).
EXPORTS_NAME: Final = "__linewise_exports__"
_DECLARATIONS: Final = frozenset({"const", "let", "var"})
_STATEMENT_WORDS: Final = frozenset(
    {"export", "function", "class", "const", "let", "var", "if", "for", "while", "return"}
)


class ModuleError(ValueError):
    """The module cannot be run here: it imports something, or its exports cannot be read."""


@dataclass(frozen=True, slots=True)
class ParserModule:
    """A ui-parser module ready for the engine: a script whose value is its exports object."""

    style: ModuleStyle
    script: str
    #: Exported names (ES modules only; a CommonJS module's are known once it runs).
    exported: tuple[str, ...] = ()


@dataclass(slots=True)
class _Rewrite:
    edits: list[tuple[int, int, str]] = field(default_factory=list)
    exported: dict[str, str] = field(default_factory=dict)  # public name -> local name


def _imports(tokens: list[Token]) -> str | None:
    """Where the module imports something (``import`` or ``require``), or None."""
    for index, token in enumerate(tokens):
        if token.kind != "name" or token.text not in ("import", "require"):
            continue
        before = tokens[index - 1] if index else None
        if before is not None and before.kind == "punct" and before.text in (".", "?."):
            continue  # a property such as `x.import`, not the keyword
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if after is not None and after.kind == "punct" and after.text == ":":
            continue  # an object key `{ require: ... }`
        return token.text
    return None


def _is_export(tokens: list[Token], index: int) -> bool:
    token = tokens[index]
    if token.kind != "name" or token.text != "export" or token.depth != 0:
        return False
    before = tokens[index - 1] if index else None
    return before is None or not (before.kind == "punct" and before.text in (".", "?."))


def _name_after(tokens: list[Token], index: int) -> str:
    if index < len(tokens) and tokens[index].kind == "name":
        return tokens[index].text
    raise ModuleError("cannot read the name of an exported declaration")


def _declaration(tokens: list[Token], index: int, rewrite: _Rewrite) -> None:
    """``export function f``, ``export class C``, ``export const a = ..., b = ...``."""
    word = tokens[index].text
    if word in ("function", "async", "class"):
        position = index + 1
        if word == "async":
            position += 1  # `function`
        if position < len(tokens) and tokens[position].text == "*":
            position += 1
        name = _name_after(tokens, position)
        rewrite.exported[name] = name
        return
    # const/let/var: the first name, and each name after a top-level comma.
    name = _name_after(tokens, index + 1)
    rewrite.exported[name] = name
    position = index + 2
    while position < len(tokens):
        token = tokens[position]
        if token.depth == 0 and token.kind == "punct" and token.text == ";":
            return
        if token.depth == 0 and token.newline_before and token.text in _STATEMENT_WORDS:
            return
        if token.depth == 0 and token.kind == "punct" and token.text == ",":
            following = _name_after(tokens, position + 1)
            rewrite.exported[following] = following
        position += 1


def _string_value(literal: str) -> str | None:
    """The value of a simple string literal, or None when it uses escapes JSON lacks."""
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    try:
        value = json.loads(f'"{body}"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _clause(tokens: list[Token], index: int, rewrite: _Rewrite) -> int:
    """``export { a, b as c };``: records the names; returns the index after the statement."""
    position = index + 1
    while position < len(tokens) and tokens[position].text != "}":
        token = tokens[position]
        if token.kind in ("name", "string"):
            local = token.text
            public = local
            if position + 2 < len(tokens) and tokens[position + 1].text == "as":
                public = tokens[position + 2].text
                position += 2
            if public[:1] in "'\"":
                public = _string_value(public) or public
            rewrite.exported[public] = local
        position += 1
    position += 1
    if position < len(tokens) and tokens[position].text == "from":
        raise ModuleError("it re-exports from another module (`export ... from`), an import")
    if position < len(tokens) and tokens[position].text == ";":
        position += 1
    return position


def _rewrite_esm(source: str, tokens: list[Token]) -> _Rewrite:
    rewrite = _Rewrite()
    index = 0
    while index < len(tokens):
        if not _is_export(tokens, index):
            index += 1
            continue
        start = tokens[index].start
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None:
            raise ModuleError("the module ends with a bare `export`")
        if following.text == "{":
            after = _clause(tokens, index + 1, rewrite)
            end = tokens[after - 1].end
            rewrite.edits.append((start, end, ""))
            index = after
        elif following.text == "*":
            raise ModuleError("it re-exports from another module (`export * from`), an import")
        elif following.text == "default":
            rewrite.edits.append((start, following.end, f"{EXPORTS_NAME}.default ="))
            index += 2
        elif following.text in ("function", "async", "class") or following.text in _DECLARATIONS:
            _declaration(tokens, index + 1, rewrite)
            rewrite.edits.append((start, following.start, ""))
            index += 2
        else:
            raise ModuleError(f"cannot read the export statement `export {following.text} ...`")
    return rewrite


def _apply(source: str, edits: list[tuple[int, int, str]]) -> str:
    pieces: list[str] = []
    cursor = 0
    for start, end, replacement in sorted(edits):
        pieces.append(source[cursor:start])
        pieces.append(replacement)
        cursor = end
    pieces.append(source[cursor:])
    return "".join(pieces)


def _esm_script(source: str, rewrite: _Rewrite) -> str:
    collect = "".join(
        f"{EXPORTS_NAME}[{json.dumps(public)}] = {local};\n"
        for public, local in rewrite.exported.items()
    )
    return (
        f'(function () {{ "use strict"; var {EXPORTS_NAME} = {{}};\n'
        f"{_apply(source, rewrite.edits)}\n;{collect}return {EXPORTS_NAME};\n}})()"
    )


def _commonjs_script(source: str) -> str:
    return (
        "(function () { var module = { exports: {} };\n"
        "(function (module, exports) {\n"
        f"{source}\n"
        "}).call(module.exports, module, module.exports);\n"
        "return module.exports; })()"
    )


def read_module(source: str, filename: str) -> ParserModule:
    """The module in ``source`` as a script; raises :class:`ModuleError` when it cannot run here.

    ``filename`` decides the style when its extension does (``.cjs``,
    ``.mjs``); a ``.js`` file is an ES module when it has a top-level
    ``export``, CommonJS otherwise.
    """
    try:
        tokens = tokenize(source)
    except LexError as error:
        raise ModuleError(f"cannot read the module: {error}") from None
    imported = _imports(tokens)
    if imported is not None:
        raise ModuleError(
            f"it uses `{imported}`: a ui-parser must have zero runtime imports "
            "(bundle its dependencies into the one file)"
        )
    has_export = any(_is_export(tokens, index) for index in range(len(tokens)))
    if filename.endswith(".cjs") and has_export:
        raise ModuleError("a .cjs file is CommonJS but this one has `export` statements")
    if filename.endswith(".mjs") or has_export:
        rewrite = _rewrite_esm(source, tokens)
        return ParserModule("esm", _esm_script(source, rewrite), tuple(rewrite.exported))
    return ParserModule("commonjs", _commonjs_script(source))


def declared_type(source: str) -> str | None:
    """The literal of a top-level ``export const type = "..."``, or None (never raises)."""
    try:
        tokens = tokenize(source)
    except LexError:
        return None
    for index in range(len(tokens) - 4):
        if not _is_export(tokens, index):
            continue
        words = [token.text for token in tokens[index + 1 : index + 4]]
        value = tokens[index + 4]
        if words == ["const", "type", "="] and value.kind == "string":
            return _string_value(value.text)
    return None
