"use strict";
// CommonJS, `module.exports = {...}` style, with module-level state.
let calls = 0;

function parseStdoutLine(line, ts) {
  calls += 1;
  return [{ kind: "tool_call", ts, name: "shell", input: { line }, toolUseId: `toy-${calls}` }];
}

module.exports = { parseStdoutLine };
