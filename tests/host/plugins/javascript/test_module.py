"""A ui-parser module read in both styles the ecosystem ships; imports refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from linewise.plugins.javascript._engine import EngineLimits, JavaScriptParser
from linewise.plugins.javascript._module import ModuleError, declared_type, read_module

LIMITS = EngineLimits(time_limit=2.0, heap_mib=32)


def _first(source: str, filename: str, line: str = "hello") -> object:
    return JavaScriptParser(read_module(source, filename), LIMITS).parse_line(line, "T")


def test_es_module_export_function(parser_source: Callable[[str], str]) -> None:
    module = read_module(parser_source("esm_static.js"), "ui-parser.js")
    assert module.style == "esm"
    assert module.exported == ("parseStdoutLine",)
    parser = JavaScriptParser(module, LIMITS)
    assert parser.parse_line("[toy] up", "T") == [{"kind": "system", "ts": "T", "text": "up"}]


def test_es_module_export_clause_with_alias(parser_source: Callable[[str], str]) -> None:
    module = read_module(parser_source("esm_clause.mjs"), "ui-parser.mjs")
    assert set(module.exported) == {"parseStdoutLine", "type"}
    entries = JavaScriptParser(module, LIMITS).parse_line("import me", "T")
    assert entries == [{"kind": "stdout", "ts": "T", "text": "import me long 31 true"}]


def test_es_module_export_const_and_let_declarators() -> None:
    source = (
        "export const parseStdoutLine = (line, ts) => [{kind: 'stdout', ts, text: a + b}], "
        "unused = 1;\nexport let a = 'A', b = 'B';\nexport default { ignored: true };\n"
    )
    module = read_module(source, "ui-parser.js")
    assert module.exported == ("parseStdoutLine", "unused", "a", "b")
    assert _first(source, "ui-parser.js") == [{"kind": "stdout", "ts": "T", "text": "AB"}]


@pytest.mark.parametrize("name", ["commonjs.cjs", "commonjs_exports.js"])
def test_commonjs_styles(parser_source: Callable[[str], str], name: str) -> None:
    module = read_module(parser_source(name), name)
    assert module.style == "commonjs"
    entries = JavaScriptParser(module, LIMITS).parse_line("call read", "T")
    assert isinstance(entries, list) and entries[0]["kind"] == "tool_call"


@pytest.mark.parametrize(
    ("source", "word"),
    [
        ('import { helper } from "./helper.js";\nexport function parseStdoutLine() {}', "import"),
        ("export function parseStdoutLine() { return import('./x.js') }", "import"),
        ('const fs = require("fs");\nmodule.exports = {}', "require"),
        ("module.exports = { parseStdoutLine: (l) => require('os') }", "require"),
    ],
)
def test_imports_and_requires_are_refused(source: str, word: str) -> None:
    with pytest.raises(ModuleError, match=f"uses `{word}`"):
        read_module(source, "ui-parser.js")


@pytest.mark.parametrize(
    "source",
    [
        'export { parseStdoutLine } from "./other.js";',
        'export * from "./other.js";',
    ],
)
def test_re_exports_are_imports(source: str) -> None:
    with pytest.raises(ModuleError, match="re-exports"):
        read_module(source, "ui-parser.js")


def test_a_cjs_file_with_export_statements_is_refused() -> None:
    with pytest.raises(ModuleError, match=r"\.cjs file is CommonJS"):
        read_module("export function parseStdoutLine() {}", "ui-parser.cjs")


def test_property_and_key_named_like_keywords_are_not_imports() -> None:
    source = (
        "const table = { require: 1, import: 2 };\n"
        "export function parseStdoutLine(line, ts) {\n"
        "  return [{ kind: 'stdout', ts, text: String(table.require + table.import) }];\n}\n"
    )
    assert _first(source, "ui-parser.js") == [{"kind": "stdout", "ts": "T", "text": "3"}]


def test_unreadable_source_is_a_module_error() -> None:
    with pytest.raises(ModuleError, match="unterminated string"):
        read_module("export const x = 'open", "ui-parser.js")


def test_declared_type_is_read_literally() -> None:
    assert declared_type('export const type = "qwen_local";\nexport const x = 1;') == "qwen_local"
    assert declared_type("export const type = 'pi_local'") == "pi_local"
    assert declared_type("const type = 'hidden'; export { type };") is None
    assert declared_type("export const type = computeIt();") is None


def test_export_words_inside_regexes_templates_and_comments_are_left_alone() -> None:
    source = (
        "const re = /export function x\\/[/]/;\n"
        "const half = 10 / 2 / 1;\n"
        "const t = `\nexport const y = 1;\n${`${half}`}`;\n"
        "// export const z = 2;\n"
        "/* export { q } */\n"
        "export function parseStdoutLine(line, ts) {\n"
        "  return [{ kind: 'stdout', ts, text: `${re.test(line)} ${t.length} ${half}` }];\n"
        "}\n"
    )
    module = read_module(source, "ui-parser.js")
    assert module.exported == ("parseStdoutLine",)
    entries = _first(source, "ui-parser.js", "export function x//")
    assert entries == [{"kind": "stdout", "ts": "T", "text": "true 22 5"}]
