// An ES module as bundlers write it: local names exported by one `export { ... }`.
// The words import and require in comments, strings, regexes and templates are not imports.
const note = "import x from 'y'; require('z')";
const pattern = /import|require\(/;
function parse(line, ts) {
  const template = `${line.length > 3 ? `long ${note.length}` : "short"}`;
  return [{ kind: "stdout", ts, text: `${line} ${template} ${pattern.test(line)}` }];
}
const type = "toy_clause";
export { parse as parseStdoutLine, type };
