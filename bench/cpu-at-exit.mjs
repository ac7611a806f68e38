// Preloaded (node --import) into every Node process the overhead benchmark starts: writes the
// process's own CPU time (user + system, all threads) as a last stderr line when it exits.
// On a shared, loaded machine wall time swings with everyone else's work; CPU time much less.
import { writeSync } from "node:fs";

process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  writeSync(2, `\nbench-cpu-ms ${(user + system) / 1000}\n`);
});
