// `scv agents login|status|logout|install` end to end (test/login/*.test.ts): a pair of homes for
// each test, the fake CLIs (test/login/fakes/) first on PATH that follow the real ones' grammar and
// messages, and canary secrets that must never reach scv's stdout, stderr or any file scv wrote
// other than the credential file itself.

import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { worldTime } from "./timing.js";

export const SCV = resolve("dist/scv.js");
export const FAKES = resolve("test/login/fakes");

/** Secrets the fakes and the tests use; none may ever appear in what scv prints or writes. */
export const CANARIES = [
  "CANARY-KEY-7f3a",
  "CANARY-TTY-KEY-19c2",
  "CANARY-ACCESS-TOKEN",
  "CANARY-REFRESH-TOKEN",
  "CANARY-ID-TOKEN",
  "CANARY-CLAUDE-ACCESS",
  "CANARY-CLAUDE-REFRESH",
  "CANARY-PI-REFRESH",
  "CANARY-IMPORT-KEY",
  "CANARY-LEAK",
];

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The temporary folder of the current test, holding its two homes. */
export let root: string;
/** scv's home in it. */
export let scvHome: string;
/** The user's HOME in it. */
export let userHome: string;
/** scv's environment: the fake CLIs first on PATH, canary credentials in the user's shell. */
export let env: NodeJS.ProcessEnv;

/** A fresh pair of homes for each test of the calling file (hooks registered per file: a worker
 * evaluates this module once for all the files it runs). */
export function useLoginWorld(): void {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "scv-login-"));
    scvHome = join(root, "scv");
    userHome = join(root, "home");
    mkdirSync(userHome);
    env = {
      PATH: `${FAKES}:/usr/bin:/bin`,
      HOME: userHome,
      SCV_HOME: scvHome,
      LANG: "C.UTF-8",
      ...worldTime(),
      // Credentials in the user's shell: isolation must keep them from every agent (the fakes exit 98
      // when they see one) and scv must never print them.
      OPENAI_API_KEY: "CANARY-LEAK-openai",
      ANTHROPIC_API_KEY: "CANARY-LEAK-anthropic",
      LEAKED_API_KEY: "CANARY-LEAK-other",
    };
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });
}

export function scv(args: readonly string[], input = ""): Run {
  const result = spawnSync(process.execPath, [SCV, ...args], {
    env,
    input,
    encoding: "utf8",
    timeout: 20_000,
  });
  const run = { code: result.status, stdout: result.stdout, stderr: result.stderr };
  expectNoSecret(run);
  return run;
}

export const hasScript = spawnSync("script", ["--version"]).status === 0;

/** scv in a pseudo-terminal (`script`), with `input` typed ahead: a person at a terminal. Its stdout
 * and stderr arrive together, as a terminal shows them. */
export async function scvInTerminal(
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, SCV, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const child = spawn("script", ["-q", "-e", "-c", command, "/dev/null"], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdin.write(input);
  const code = await new Promise<number | null>((resolveCode) => child.on("close", resolveCode));
  const run = { code, stdout: output.replaceAll("\r\n", "\n"), stderr: "" };
  expectNoSecret(run);
  return { code, output: run.stdout };
}

export function expectNoSecret(run: Run): void {
  for (const canary of CANARIES) {
    expect(run.stdout).not.toContain(canary);
    expect(run.stderr).not.toContain(canary);
  }
  // Failures are one line, never a stack trace.
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toContain("internal error");
}

/** Every file under scv's home except the credential files named (relative to the agent home). */
export function expectNoSecretInFiles(agent: string, credentialFiles: readonly string[]): void {
  const home = join(scvHome, "agents", agent);
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      const stat = lstatSync(path);
      return stat.isDirectory() ? walk(path) : stat.isFile() ? [path] : [];
    });
  if (!existsSync(scvHome)) return;
  for (const file of walk(scvHome)) {
    if (file.startsWith(`${home}/`) && credentialFiles.includes(relative(home, file))) continue;
    const text = readFileSync(file, "utf8");
    for (const canary of CANARIES) expect(text, `${file} holds a secret`).not.toContain(canary);
  }
}

export function agentFile(agent: string, file: string): string {
  return join(scvHome, "agents", agent, file);
}

export function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

export function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}
