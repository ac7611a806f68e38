// The CLI program (dist/app.js, run by launcher.ts).

import { processIo } from "./io.js";
import { run } from "./main.js";

const io = processIo();
void run(process.argv.slice(2), io).then((code) => {
  process.exitCode = code;
});
