// Preloaded into the built scv (NODE_OPTIONS=--require) by tests that count how often a turn rewrites
// its running record: wraps fs.renameSync (the bundle looks it up on the module at each call) and, at
// exit, writes to $SCV_TEST_RENAMES the number of renames onto $SCV_HOME/turns/<handle>.json and the
// process's lifetime in ms. Only in scv's own process: the agent may inherit NODE_OPTIONS.
const fs = require("node:fs");
const path = require("node:path");

const out = process.env.SCV_TEST_RENAMES;
const turns = process.env.SCV_HOME ? path.join(process.env.SCV_HOME, "turns") : undefined;
if (out && turns && /scv\.js$/.test(process.argv[1] ?? "")) {
  const started = performance.now();
  const rename = fs.renameSync;
  let renames = 0;
  fs.renameSync = function renameSync(from, to) {
    const target = String(to);
    if (path.dirname(target) === turns && /^[a-z][a-z0-9-]*\.json$/.test(path.basename(target))) renames += 1;
    return rename.call(this, from, to);
  };
  process.on("exit", () => {
    fs.writeFileSync(out, JSON.stringify({ renames, ms: performance.now() - started }));
  });
}
