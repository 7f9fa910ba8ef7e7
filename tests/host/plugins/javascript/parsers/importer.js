import { helper } from "./helper.js";

export function parseStdoutLine(line, ts) {
  return helper(line, ts);
}
