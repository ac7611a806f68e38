// End-to-end plumbing: the built `scv` (dist/scv.js, rebuilt when older than src/), a temporary
// world for each test (the user's HOME with canary agent folders, SCV_HOME, a project folder, fake
// agents first on PATH, a folder where they record their calls), and signing agents in there.

import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa, type ResultPromise } from "execa";
import lockfile from "proper-lockfile";
import { type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { saveApiKey } from "../../src/home/keystore.js";
import type { RunningTurnRecord } from "../../src/home/turn-records.js";
import { installFakeAgents } from "../fake-agents/install.js";
import { worldTime } from "./timing.js";

const ROOT = join(import.meta.dirname, "..", "..");
export const SCV = join(ROOT, "dist", "scv.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    newest = Math.max(newest, statSync(join(dir, name)).mtimeMs);
  }
  return newest;
}

/** Builds dist/scv.js when it is missing or older than src/ (`npm test` has built it already).
 * Test files run in parallel workers, so the build is locked. */
export async function ensureBuilt(): Promise<void> {
  const fresh = () => existsSync(SCV) && statSync(SCV).mtimeMs >= newestMtime(join(ROOT, "src"));
  if (fresh()) return;
  const release = await lockfile.lock(join(ROOT, "package.json"), {
    lockfilePath: join(tmpdir(), `scv-test-build-${Buffer.from(ROOT).toString("hex").slice(-24)}.lock`),
    retries: { retries: 240, factor: 1, minTimeout: 250, maxTimeout: 250 },
    stale: 60_000,
  });
  try {
    if (!fresh())
      execFileSync(process.execPath, [join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, stdio: "pipe" });
  } finally {
    await release();
  }
}

export interface World {
  readonly root: string;
  /** The user's own HOME, with canary ~/.codex, ~/.claude, ~/.gemini. */
  readonly home: string;
  readonly scvHome: string;
  /** The project folder the agent works in. */
  readonly project: string;
  readonly bin: string;
  /** Where the fake agents record their calls. */
  readonly calls: string;
  /** The user's TMPDIR, the world's own. */
  readonly tmp: string;
  /** scv's environment: a small, explicit one (tests add canaries on top). */
  readonly env: Record<string, string>;
  dispose(): void;
}

export const CANARY_FILES: readonly string[] = [
  ".codex/auth.json",
  ".codex/config.toml",
  ".claude/settings.json",
  ".claude/.credentials.json",
  ".claude.json",
  ".gemini/.env",
  ".gemini/settings.json",
];

export function createWorld(): World {
  const root = mkdtempSync(join(tmpdir(), "scv-e2e-"));
  const home = join(root, "home");
  const scvHome = join(root, "scv-home");
  const project = join(root, "project");
  const bin = join(root, "bin");
  const calls = join(root, "calls");
  const tmp = join(root, "tmp");
  for (const dir of [home, project, calls, tmp]) mkdirSync(dir, { recursive: true });
  for (const file of CANARY_FILES) {
    mkdirSync(join(home, file, ".."), { recursive: true });
    writeFileSync(join(home, file), `canary ${file}\n`);
  }
  installFakeAgents(bin);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    SCV_HOME: scvHome,
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: tmp,
    FAKE_AGENT_DIR: calls,
    ...worldTime(),
  };
  return {
    root,
    home,
    scvHome,
    project,
    bin,
    calls,
    tmp,
    env,
    dispose: () => removeTree(root),
  };
}

/** rm -rf, also through the read-only folders fake agents leave in a TMPDIR scv did not give them
 * (a sign-in, a status check), and again while a folder fills as it is emptied (ENOTEMPTY: an scv
 * whose agent was just killed saving its turn's end). */
function removeTree(dir: string): void {
  const again = { recursive: true, force: true, maxRetries: 5, retryDelay: 100 };
  try {
    rmSync(dir, again);
  } catch {
    execFileSync("chmod", ["-R", "u+w", dir]);
    rmSync(dir, again);
  }
}

export interface ScvRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ScvOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  readonly cwd?: string;
}

/** Starts `node dist/scv.js …` in the world's project folder. */
export function startScv(world: World, args: readonly string[], options: ScvOptions = {}): ResultPromise {
  return execa(process.execPath, [SCV, ...args], {
    cwd: options.cwd ?? world.project,
    env: { ...world.env, ...options.env },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
  });
}

export async function scv(world: World, args: readonly string[], options: ScvOptions = {}): Promise<ScvRun> {
  const result = await startScv(world, args, options);
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
  };
}

export interface AgentCall {
  readonly cli: string;
  readonly argv: string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly pid: number;
  readonly stdin: string;
  /** The mode of the TMPDIR it got while it ran, as "0700"; null when there was none. */
  readonly tmpMode: string | null;
}

/** The fake agents' calls, oldest first. */
export function agentCalls(world: World): AgentCall[] {
  return readdirSync(world.calls)
    .filter((name) => name.endsWith(".json") && !name.startsWith("pids"))
    .map((name) => ({ name, time: Number(name.split("-").at(-2)) }))
    .sort((a, b) => a.time - b.time)
    .map(({ name }) => JSON.parse(readFileSync(join(world.calls, name), "utf8")) as AgentCall);
}

export function onlyCall(world: World): AgentCall {
  const calls = agentCalls(world);
  if (calls.length !== 1) throw new Error(`expected one agent call, got ${calls.length}`);
  return calls[0] as AgentCall;
}

/** Lets fake agents in mode `gate[:<name>]` go on (and the ones that start later, until closed). */
export function openGate(world: World, name = "open"): void {
  writeFileSync(join(world.calls, name), "");
}

export function closeGate(world: World, name = "open"): void {
  rmSync(join(world.calls, name), { force: true });
}

/** Waits (polling, bounded) for the pids a hanging fake agent writes once it runs. */
export async function agentPids(world: World, name = "pids.json", withinMs = 20_000): Promise<number[]> {
  const path = join(world.calls, name);
  const deadline = Date.now() + withinMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error("the fake agent never started");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return JSON.parse(readFileSync(path, "utf8")) as number[];
}

export function entry(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(`no adapter ${name}`);
  return found;
}

/** Signs `agent` in inside the world's agent home, the way its key store reads it. */
export async function signIn(world: World, agent: string, account?: string): Promise<void> {
  const found = entry(agent);
  const home = join(world.scvHome, "agents", account === undefined ? found.name : `${found.name}@${account}`);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const store = found.status.kind === "stored" ? found.status.store : found.preflight;
  if (store === undefined) return;
  if (found.login.kind === "api-key") {
    await saveApiKey(found.login.store, home, "sk-test-key", async () => ({
      code: 0,
      stdout: "",
      stderr: "",
      timedOut: false,
    }));
    return;
  }
  const write = (path: string, text: string) => {
    mkdirSync(join(home, path, ".."), { recursive: true });
    writeFileSync(join(home, path), text, { mode: 0o600 });
  };
  switch (store.kind) {
    case "oauth-file":
      write(
        store.file,
        JSON.stringify(at(store.path, { [store.fields.access]: "a", [store.fields.refresh]: "r" })),
      );
      return;
    case "provider-keys":
      write(store.auth, JSON.stringify({ mock: { type: "api_key", key: "sk-test-key" } }));
      return;
    case "json-entries":
      write(store.file, JSON.stringify({ default: { token: "t" } }));
      return;
    case "auth-json":
      write(store.file, JSON.stringify(at(store.key, "sk-test-key")));
      return;
    default:
      throw new Error(`signIn: no recipe for key store ${store.kind}`);
  }
}

/** `value` at `path` of an otherwise empty object. */
function at(path: readonly string[], value: unknown): unknown {
  return path.reduceRight((inner, key) => ({ [key]: inner }), value);
}

/** Conversation records in the world, by handle. */
export function conversationRecord(world: World, handle: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(world.scvHome, "conversations", `${handle}.json`), "utf8")) as Record<
    string,
    unknown
  >;
}

/** Makes a conversation `days` old, as gc reads its age (the record's times and its file's). */
export function ageConversation(world: World, handle: string, days = 60): void {
  const path = join(world.scvHome, "conversations", `${handle}.json`);
  const old = new Date(Date.now() - days * 86_400_000);
  const record = conversationRecord(world, handle);
  writeFileSync(
    path,
    JSON.stringify({ ...record, updatedAt: old.toISOString(), createdAt: old.toISOString() }),
  );
  utimesSync(path, old, old);
}

/** The one running turn's record, once `scv ps` lists it with its agent's pid (up to 20 s). */
export async function runningRecord(world: World): Promise<{ path: string; record: RunningTurnRecord }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = await scv(world, ["ps", "--json"]);
    const [row] = JSON.parse(rows.stdout) as { handle: string; pid: number | null }[];
    if (row !== undefined && row.pid !== null) {
      const path = join(world.scvHome, "turns", `${row.handle}.json`);
      return { path, record: JSON.parse(readFileSync(path, "utf8")) as RunningTurnRecord };
    }
    if (Date.now() > deadline) throw new Error("no running turn with its agent's pid");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Installs `acme` (test/fake-agents/acme.mjs, an agent scv's config defines) in the world's bin and
 * writes `toml` as scv's config; the variable that names it, for a run's env. */
export function configureAcme(world: World, toml: string): Record<string, string> {
  const launcher = join(world.bin, "acme");
  const acme = pathToFileURL(join(import.meta.dirname, "..", "fake-agents", "acme.mjs")).href;
  writeFileSync(launcher, `#!${process.execPath}\nimport(${JSON.stringify(acme)});\n`);
  chmodSync(launcher, 0o755);
  const path = join(world.root, "scv.toml");
  writeFileSync(path, toml);
  return { SCV_CONFIG: path };
}

const FAKE_AGENTS = join(import.meta.dirname, "..", "fake-agents");

/** Puts a `gemini` on the world's PATH that is the fake process agent for `gemini -p …` and the fake
 * ACP agent for `gemini --acp …` (in $FAKE_ACP_MODE, scripted by default); each start is noted with
 * its transport and pid in $FAKE_AGENT_DIR/gemini-starts.jsonl. The launcher keeps its name, which
 * the process fake plays. */
export function installGeminiBoth(world: World): void {
  const acpAgent = pathToFileURL(join(FAKE_AGENTS, "acp-agent.mjs")).href;
  const processAgent = pathToFileURL(join(FAKE_AGENTS, "agent.mjs")).href;
  const path = join(world.bin, "gemini");
  writeFileSync(
    path,
    `#!${process.execPath}
const { appendFileSync } = require("node:fs");
const acp = process.argv.includes("--acp");
appendFileSync(process.env.FAKE_AGENT_DIR + "/gemini-starts.jsonl", JSON.stringify({ acp, pid: process.pid }) + "\\n");
if (acp) process.argv.splice(2, process.argv.length, process.env.FAKE_ACP_MODE || "scripted");
import(acp ? ${JSON.stringify(acpAgent)} : ${JSON.stringify(processAgent)});
`,
  );
  chmodSync(path, 0o755);
}

/** The starts `installGeminiBoth`'s launcher noted, oldest first. */
export function geminiStarts(world: World): { acp: boolean; pid: number }[] {
  try {
    return readFileSync(join(world.calls, "gemini-starts.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { acp: boolean; pid: number });
  } catch {
    return [];
  }
}

/** The handle in the line scv prints on stderr after a reply it can continue. */
export function handleIn(stderr: string): string {
  const handle = /^conversation: ([a-z-]+-[0-9a-z]{6}) — continue with: scv delegate -c \1 "…"$/m.exec(
    stderr,
  )?.[1];
  if (handle === undefined) throw new Error(`no conversation line in: ${stderr}`);
  return handle;
}
