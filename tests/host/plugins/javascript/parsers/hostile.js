// A parser that misbehaves on purpose, one way per line:
// "throw", "loop" (runs forever), "grow" (allocates without bound), "deep" (recursion),
// "probe" (reports which host objects it can reach), "function" and "date" (not JSON),
// "invalid" (an entry of no known kind), "object" (not a list).
let seen = 0;

function reachable() {
  const names = ["require", "process", "fetch", "std", "os", "setTimeout", "setInterval",
    "XMLHttpRequest", "WebSocket", "Deno", "Bun", "window", "document", "print", "console",
    "scriptArgs", "module", "exports", "__linewise_module__"];
  const found = {};
  for (const name of names) {
    found[name] = typeof globalThis[name];
  }
  let dynamicImport = "refused";
  try {
    new Function("return import('os')")().catch(() => {});
    dynamicImport = "promise";
  } catch (error) {
    dynamicImport = String(error.name);
  }
  found.dynamicImport = dynamicImport;
  return found;
}

export function parseStdoutLine(line, ts) {
  seen += 1;
  if (line === "throw") throw new Error("boom");
  if (line === "loop") { for (;;) {} }
  if (line === "grow") {
    const hoard = [];
    for (;;) hoard.push("x".repeat(4096) + hoard.length);
  }
  if (line === "deep") {
    const down = (n) => down(n + 1) + 1;
    return down(0);
  }
  if (line === "probe") return [{ kind: "system", ts, text: JSON.stringify(reachable()) }];
  if (line === "function") return [{ kind: "tool_call", ts, name: "x", input: { f: () => 1 } }];
  if (line === "date") return [{ kind: "system", ts, text: new Date(0) }];
  if (line === "nan") return [{ kind: "tool_call", ts, name: "x", input: { n: NaN } }];
  if (line === "invalid") return [{ kind: "nonsense", ts }];
  if (line === "object") return { kind: "stdout", ts, text: line };
  return [{ kind: "stdout", ts, text: `${line} #${seen}` }];
}
