// An ES module with a static parser, `export function` style.
const PREFIX = "[toy]";

export function parseStdoutLine(line, ts) {
  if (line.startsWith(PREFIX)) {
    return [{ kind: "system", ts, text: line.slice(PREFIX.length).trim() }];
  }
  return [{ kind: "assistant", ts, text: line }];
}
