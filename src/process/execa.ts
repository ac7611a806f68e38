// execa, for src/os/bounded.ts to import when it first starts a process: commands that
// start none (`scv agents list` with every version read from package.json) do not load it. (The
// bundle keeps execa in a file of its own; a dynamic import of that file itself would bypass the
// require the bundle runs under.)
export { execa } from "execa";
