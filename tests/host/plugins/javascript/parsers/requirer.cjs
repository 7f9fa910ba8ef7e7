const fs = require("fs");

module.exports.parseStdoutLine = function (line, ts) {
  return [{ kind: "stdout", ts, text: String(fs.existsSync(line)) }];
};
