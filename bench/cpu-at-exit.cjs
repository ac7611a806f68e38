// Preloaded (node --require) into every Node process the overhead and busy benchmarks start: writes
// the process's own CPU time (user + system, all threads) and its peak resident set size as its last
// stderr lines when it exits. On a shared, loaded machine wall time swings with everyone else's work;
// CPU time much less.
// CommonJS on purpose: an ES module preload (--import) starts Node's ES module loader in every
// process, which the floor (an .mjs file) starts anyway but scv (CommonJS) does not: it would bias
// the comparison against scv (docs/benchmarks.md).
const { writeSync } = require("node:fs");

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  // maxRSS is in kilobytes.
  writeSync(
    2,
    `\nbench-cpu-ms ${(user + system) / 1000}\nbench-max-rss-kb ${process.resourceUsage().maxRSS}\n`,
  );
});
