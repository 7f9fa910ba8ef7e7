// Both exports: createStdoutParser must win over parseStdoutLine.
export const parseStdoutLine = (line, ts) => [{ kind: "stdout", ts, text: "static" }];

export function createStdoutParser() {
  let count = 0;
  return {
    parseLine(line, ts) {
      count += 1;
      return [{ kind: "assistant", ts, text: `stateful ${count}` }];
    },
    reset() {
      count = 0;
    },
  };
}
