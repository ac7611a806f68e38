// The CLI program (dist/app.js, run by launcher.ts).

import { flushed } from "../io.js";
import { installExitHooks } from "../process/lifecycle.js";
import { processIo } from "./io.js";
import { releaseLostTerminal } from "./lost-terminal.js";
import { run } from "./main.js";

process.on("exit", releaseLostTerminal);
installExitHooks();

const io = processIo();
void run(process.argv.slice(2), io).then(async (code) => {
  process.exitCode = code;
  // Every command has awaited its own work by now (agents ended, records written, locks released);
  // once stdout and stderr have taken what was written, exiting skips Node's teardown of handles
  // and the heap, which no command needs.
  await flushed(process.stdout);
  await flushed(process.stderr);
  process.exit(code);
});
