// A throwaway world for the process benchmarks: HOME, SCV_HOME and a project folder in a temporary
// directory, and fake `claude` CLIs first on PATH. The fakes are two-line shell scripts that print
// the real capture test/fixtures/claude/turn1.stdout (a tiny valid stream-json turn) and exit, so
// the agent itself costs next to nothing; the slow one sleeps 1 s first. Beside them a fake ACP adapter
// for claude (`claude-agent-acp`), for `--transport acp` turns. Claude is signed in there
// with scv's own `agents login --with-api-key` and a made-up key (nothing leaves the machine).

import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cleanEnv, OUT, ROOT } from "./lib.js";

/** The copy of dist/ that bench/run.mjs took when the run started. */
export const SCV = join(OUT, "scv", "scv.js");
export const FLOOR = join(ROOT, "bench", "floor.mjs");
const FIXTURE = join(ROOT, "test", "fixtures", "claude", "turn1.stdout");
/** What the fixture's turn replies. */
export const REPLY = "MOCK-REPLY-1";
/** The argv scv gives claude for a new turn, minus the session id: what the direct run gets. */
export const CLAUDE_ARGS = ["-p", "--output-format", "stream-json", "--verbose", "hi"];

/** A build of scv the overhead benchmark measures: this one (dist/), or another given with
 * `--baseline`, each with its own SCV_HOME: a code cache belongs to one build, so two builds sharing a
 * home would rewrite each other's on every run. */
export interface Build {
  /** Its `scv.js`. */
  readonly scv: string;
  /** The world's environment with the build's own SCV_HOME, claude signed in there. */
  readonly env: Record<string, string>;
}

export interface World {
  readonly project: string;
  /** The fake agent itself, by absolute path. */
  readonly agent: string;
  /** Environment with the fast fake first on PATH. */
  readonly env: Record<string, string>;
  /** Environment with the fake that sleeps 1 s first on PATH. */
  readonly slowEnv: Record<string, string>;
  /** This build first, then the `--baseline` ones. */
  readonly builds: readonly Build[];
  dispose(): void;
}

/** The fake ACP adapter for claude (`claude-agent-acp`): test/fake-agents/acp-agent.mjs, scripted,
 * keeping its sessions in `dir`. */
function fakeAcpAdapter(bin: string, dir: string): void {
  const agent = join(ROOT, "test", "fake-agents", "acp-agent.mjs");
  const path = join(bin, "claude-agent-acp");
  writeFileSync(
    path,
    `#!${process.execPath}\nprocess.env.FAKE_AGENT_DIR = ${JSON.stringify(dir)};\nprocess.argv.splice(2, process.argv.length, "scripted");\nimport(${JSON.stringify(pathToFileURL(agent).href)});\n`,
  );
  chmodSync(path, 0o755);
}

function fakeAgent(dir: string, stream: string, sleep: boolean): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "claude");
  writeFileSync(path, `#!/bin/sh\n${sleep ? "sleep 1\n" : ""}exec cat '${stream}'\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Signs claude in under `env`'s SCV_HOME with scv's own login and a made-up key. */
export function signIn(scv: string, env: Record<string, string>, project: string): void {
  const login = spawnSync(process.execPath, [scv, "agents", "login", "claude", "--with-api-key"], {
    env,
    cwd: project,
    input: "sk-ant-bench-0000000000000000\n",
    encoding: "utf8",
  });
  if (login.status !== 0) throw new Error(`scv agents login claude failed: ${login.stderr}`);
}

/** `baselines`: the `scv.js` of other builds to measure beside this one. */
export function createWorld(baselines: readonly string[] = []): World {
  const root = mkdtempSync(join(tmpdir(), "bench-scv-"));
  const project = join(root, "project");
  mkdirSync(project);
  mkdirSync(join(root, "home"));
  // The capture ran with full permissions; under scv's default policy claude says "default", and
  // scv stops a turn whose reported mode contradicts its policy.
  const stream = join(root, "turn1.stdout");
  writeFileSync(
    stream,
    readFileSync(FIXTURE, "utf8").replace(
      '"permissionMode":"bypassPermissions"',
      '"permissionMode":"default"',
    ),
  );
  const agent = fakeAgent(join(root, "bin"), stream, false);
  mkdirSync(join(root, "acp"));
  fakeAcpAdapter(join(root, "bin"), join(root, "acp"));
  fakeAgent(join(root, "bin-slow"), stream, true);
  const base = { HOME: join(root, "home"), SCV_HOME: join(root, "scv-home") };
  const path = (bin: string) => `${join(root, bin)}:${process.env.PATH ?? "/usr/bin:/bin"}`;
  const env = cleanEnv({ ...base, PATH: path("bin") });
  const builds: Build[] = [
    { scv: SCV, env },
    ...baselines.map((scv, i) => ({
      scv,
      env: { ...env, SCV_HOME: join(root, `scv-home-baseline-${i + 1}`) },
    })),
  ];
  for (const build of builds) signIn(build.scv, build.env, project);
  return {
    builds,
    project,
    agent,
    env,
    slowEnv: cleanEnv({ ...base, PATH: path("bin-slow") }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
