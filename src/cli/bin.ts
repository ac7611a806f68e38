// The `scv` executable.

import { processIo } from "./io.js";
import { run } from "./main.js";

const io = processIo();
process.exitCode = await run(process.argv.slice(2), io);
