// Runs a ui-parser module in Node the way the reference host does, for the differential test.
// argv[2]: the module file. stdin: JSON [[line, ...], ...] (one list per transcript).
// stdout: JSON [[entries or {"error": message}, ...], ...].
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.argv[2];
const loaded = file.endsWith(".cjs")
  ? createRequire(import.meta.url)(file)
  : await import(pathToFileURL(file).href);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const transcripts = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const results = [];
for (const lines of transcripts) {
  // A fresh module instance per transcript, as linewise gives each its own context.
  const mod = file.endsWith(".cjs")
    ? (delete createRequire(import.meta.url).cache[file], createRequire(import.meta.url)(file))
    : await import(pathToFileURL(file).href + "?t=" + results.length);
  const parser = typeof mod.createStdoutParser === "function"
    ? mod.createStdoutParser()
    : { parseLine: (line, ts) => mod.parseStdoutLine(line, ts) };
  const out = [];
  for (const line of lines) {
    try {
      out.push(JSON.parse(JSON.stringify(parser.parseLine(line, "2026-01-01T00:00:00.000Z"))));
    } catch (error) {
      out.push({ error: String(error && error.message) });
    }
  }
  results.push(out);
}
process.stdout.write(JSON.stringify(results));
void loaded;
