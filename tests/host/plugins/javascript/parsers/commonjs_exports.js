// CommonJS, `exports.x = ...` style, in a .js file.
exports.createStdoutParser = function () {
  var pending = null;
  return {
    parseLine: function (line, ts) {
      if (line.indexOf("call ") === 0) {
        pending = line.slice(5);
        return [{ kind: "tool_call", ts: ts, name: pending, input: {}, toolUseId: "t1" }];
      }
      if (line === "done" && pending !== null) {
        pending = null;
        return [{ kind: "tool_result", ts: ts, toolUseId: "t1", content: "ok", isError: false }];
      }
      return [{ kind: "assistant", ts: ts, text: line }];
    },
    reset: function () {
      pending = null;
    },
  };
};
