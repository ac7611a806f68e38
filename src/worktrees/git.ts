// The one way src/worktrees/ runs git: its own CLI through scv's bounded process runner
// (src/process/helpers.ts), never a reimplementation. Every call runs with the user's repository's hooks
// off (`core.hooksPath=/dev/null`: `worktree add` runs post-checkout, `add` post-index-change) and
// signing off, with no terminal prompt, and without the variables that would point git at another
// repository than the folder it runs in (a `GIT_DIR` inherited from a hook that started scv).
// A git that is not installed is one line saying what to install.

import { existsSync } from "node:fs";
import { ScvError } from "../errors.js";
import type { Env } from "../home/paths.js";
import { runAttached, runBounded } from "../process/helpers.js";
import { timing } from "../timing.js";

/** Variables that choose which repository, index or object store git uses: the folder a call runs
 * in decides, not what scv inherited (`git rev-parse --local-env-vars`, plus the index). */
const LOCATING_VARIABLES: readonly string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_PREFIX",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_NAMESPACE",
  "GIT_GRAFT_FILE",
  "GIT_SHALLOW_FILE",
  "GIT_REPLACE_REF_BASE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_LITERAL_PATHSPECS",
  "GIT_GLOB_PATHSPECS",
  "GIT_NOGLOB_PATHSPECS",
  "GIT_ICASE_PATHSPECS",
];

/** Configuration every call carries: no hook of the user's runs, nothing is signed (a key prompt
 * would hang a bounded call; a commit scv records is scv's, not the user's). */
const FIXED_CONFIG: readonly string[] = ["-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false"];

/** Output kept from one call; one that would exceed it is refused, never silently cut. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export interface GitOptions {
  /** The folder git runs in (a work tree, or the repository's git directory). */
  readonly cwd: string;
  /** The caller's environment (`io.env`), minus the locating variables. */
  readonly env: Env;
  /** Written to stdin (`--stdin -z` path lists). */
  readonly input?: string;
  /** A temporary index instead of the work tree's own (`GIT_INDEX_FILE`). */
  readonly index?: string;
  /** Pathspecs are file names, never patterns (`GIT_LITERAL_PATHSPECS`): a file named `*.c`. */
  readonly literalPaths?: boolean;
  /** Variables set last: an identity for the commits scv records. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
}

export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** git's environment: the parent's without the locating variables, no prompt for credentials or
 * anything else, no optional index lock (a `status` must not take the user's index lock). Pure. */
export function gitEnvironment(
  parent: Env,
  options: Pick<GitOptions, "index" | "literalPaths" | "extraEnv"> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  const removed = new Set(LOCATING_VARIABLES);
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !removed.has(name)) env[name] = value;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  if (options.index !== undefined) env.GIT_INDEX_FILE = options.index;
  if (options.literalPaths) env.GIT_LITERAL_PATHSPECS = "1";
  return { ...env, ...options.extraEnv };
}

/** The argv of a git call: the fixed configuration, then `args`. Pure. */
export function gitArgv(args: readonly string[]): string[] {
  return [...FIXED_CONFIG, ...args];
}

/** What to do when git is missing, one line. */
export const GIT_MISSING =
  "git is not installed (or not on PATH) — install git (apt install git, dnf install git, brew install git, or https://git-scm.com) and run scv again";

function notRun(args: readonly string[], cwd: string, spawnError: string): ScvError {
  // ENOENT is also what a folder that is gone gives.
  if (!existsSync(cwd)) return new ScvError("IO", `${cwd} is gone, so git cannot run there — check the path`);
  if (/ENOENT/.test(spawnError)) return new ScvError("USAGE", GIT_MISSING);
  return new ScvError("IO", `cannot run git ${args[0] ?? ""} in ${cwd}: ${spawnError}`);
}

/** Runs git and returns its exit code and output; throws (one line) only when it could not run,
 * ran out of time, or said more than the call keeps. */
export async function git(args: readonly string[], options: GitOptions): Promise<GitRun> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? timing("gitLimit");
  const result = await runBounded("git", gitArgv(args), {
    env: gitEnvironment(options.env, options),
    cwd: options.cwd,
    timeoutMs,
    maxBytes,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  if (result.spawnError !== undefined) throw notRun(args, options.cwd, result.spawnError);
  if (result.timedOut) {
    throw new ScvError(
      "IO",
      `git ${args[0] ?? ""} did not finish within ${Math.round(timeoutMs / 1000)}s in ${options.cwd} — check the repository (a stale .git/index.lock, a filter waiting for input) and try again`,
    );
  }
  if (Buffer.byteLength(result.stdout) >= maxBytes) {
    throw new ScvError(
      "IO",
      `git ${args[0] ?? ""} in ${options.cwd} wrote more than ${maxBytes} bytes — too many changes for scv to handle at once`,
    );
  }
  return { code: result.code ?? 128, stdout: result.stdout, stderr: result.stderr };
}

/** git's own complaint, one line: its last `fatal:`/`error:` line, else its first line. */
export function gitComplaint(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const fatal = lines.findLast((line) => /^(fatal|error):/.test(line));
  return (fatal ?? lines[0] ?? "no message").replace(/^(fatal|error):\s*/, "");
}

/** Runs git and returns its stdout; a non-zero exit is an `IO` failure naming the command, the
 * folder and git's own line. */
export async function gitOk(args: readonly string[], options: GitOptions): Promise<string> {
  const run = await git(args, options);
  if (run.code !== 0) throw gitFailed(args, options.cwd, run);
  return run.stdout;
}

export function gitFailed(args: readonly string[], cwd: string, run: GitRun): ScvError {
  return new ScvError("IO", `git ${args[0] ?? ""} failed in ${cwd}: ${gitComplaint(run.stderr)}`);
}

/** One line of stdout, trimmed (a sha, a path). */
export async function gitLine(args: readonly string[], options: GitOptions): Promise<string> {
  return (await gitOk(args, options)).trim();
}

/** `-z` output as its entries. */
export function nulSeparated(text: string): string[] {
  const entries = text.split("\0");
  if (entries.at(-1) === "") entries.pop();
  return entries;
}

/** Runs git on the terminal (`git diff` through the user's pager and colours), no time limit: a
 * person reads it. Returns git's exit code. */
export async function gitOnTerminal(
  args: readonly string[],
  options: Pick<GitOptions, "cwd" | "env">,
): Promise<number> {
  const result = await runAttached("git", gitArgv(args), {
    env: gitEnvironment(options.env),
    cwd: options.cwd,
  });
  if (result.spawnError !== undefined) throw notRun(args, options.cwd, result.spawnError);
  return result.code ?? 128;
}
