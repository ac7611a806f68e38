// What a detached scv (a session host, a background turn's runner, `scv mcp`'s spare runner) keeps
// of its caller's environment: only what scv itself reads. It outlives the command that started it,
// for minutes or hours, and its environment stays readable in /proc/<pid>/environ all that time: the
// caller's whole shell there would keep every secret in it. What a turn's agent needs of the caller's
// environment travels on the runner's stdin instead, already stripped of credentials (jobs/job.ts),
// and a session host is handed its server's environment, made by the turn (acp/session-host/spec.ts).

/** scv's own variables (SCV_HOME, SCV_CONFIG, SCV_DEPTH, SCV_LOCK_WAIT, the ready pipe's, …). */
const OWN_PREFIX = "SCV_";

/** What scv reads besides its own (its home and config folders, the socket folders, the tools it
 * runs through PATH), and what Node itself reads at start-up. */
const READ_BY_SCV: ReadonlySet<string> = new Set([
  "HOME",
  "USER",
  "LOGNAME",
  "PATH",
  "TMPDIR",
  "XDG_DATA_HOME",
  "XDG_CONFIG_HOME",
  "XDG_RUNTIME_DIR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "NODE_OPTIONS",
  "NODE_EXTRA_CA_CERTS",
  "NODE_V8_COVERAGE",
  "NODE_COMPILE_CACHE",
  "NODE_NO_WARNINGS",
]);

/** `env` without everything scv does not read itself. */
export function detachedEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && (name.startsWith(OWN_PREFIX) || READ_BY_SCV.has(name))) kept[name] = value;
  return kept;
}
