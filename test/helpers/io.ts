// A command's outside world in memory, for running CLI code in-process.

import { PassThrough } from "node:stream";
import type { CliIo } from "../../src/io.js";

export function memoryIo(): CliIo & { stdout: PassThrough; stderr: PassThrough } {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    cwd: "/",
    exitCode: 0,
  };
}
