// Types for tools.mjs (the mock's `tool` mode).

/** The file the probe command creates in the CLI's working folder. */
export const PROBE_FILE: string;
/** The shell command the mock asks the CLI's shell tool to run. */
export const PROBE_COMMAND: string;
