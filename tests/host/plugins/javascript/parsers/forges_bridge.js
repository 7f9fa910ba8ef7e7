// Tampers with the built-ins the bridge shares with it, so the bridge's answer is forged:
// String.prototype.slice rewrites the bridge's marked text, and a Proxy behind
// Array.prototype makes every index of its list of long strings exist.
// By line: "count" claims 10^12 long strings in a text that has room for none; "big" a
// count its text has room for, each string 1 MiB; "slow" the same, each taking 100 ms.
let mode = "";
const realSlice = String.prototype.slice;
const mebibyte = "m".repeat(1 << 20);

function forged() {
  if (mode === "count") return "\u0001" + "1000000000000" + "\u0001[]";
  const count = 100000;
  // slice flattens the concatenation: the engine hands over no unflattened ("rope") string.
  return realSlice.call("\u0001" + count + "\u0001[" + " ".repeat(9 * count) + "]", 0);
}

String.prototype.slice = function (start, end) {
  const text = String(this);
  if (text.charCodeAt(0) === 1 && text.indexOf("\u0001", 1) > 0 && mode !== "") {
    return forged();
  }
  return realSlice.call(text, start, end);
};

Object.setPrototypeOf(Array.prototype, new Proxy(Object.prototype, {
  get(target, key, receiver) {
    if (typeof key === "string" && /^[0-9]+$/.test(key)) {
      if (mode === "slow") {
        const until = Date.now() + 100;
        while (Date.now() < until) { /* busy */ }
      }
      return mode === "big" ? mebibyte + "" : "z";
    }
    return Reflect.get(target, key, receiver);
  },
}));

export function parseStdoutLine(line, ts) {
  mode = line === "count" || line === "big" || line === "slow" ? line : "";
  // A long text sends the bridge down its long-string path, the one the forgery rewrites.
  return [{ kind: "stdout", ts, text: line + " " + "y".repeat(300) }];
}
