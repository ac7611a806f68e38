// Captures real CLIs speaking ACP against the loopback mocks, into test/fixtures/acp/<cli>/:
//   npx tsx test/real/acp/capture.ts <cli> [case…]      (cli: gemini qwen opencode copilot claude-acp codex-acp pi-acp)
// Each case starts the CLI's ACP server in one lab home (shared by the CLI's cases, so `load` finds
// the session `turn` made), drives it with raw JSON-RPC (rpc.ts) and writes `<case>.stdin` (client →
// agent), `<case>.stdout` (agent → client), `<case>.stderr` and `<case>.json` (argv, timings, the
// order of the lines, what the mock received). Paths under the lab home are written as /home/user.
// The adapters (claude-acp, codex-acp, pi-acp) are read from $SCV_ACP_ADAPTERS/node_modules; a Node to run
// them with from $SCV_ACP_NODE (default: this one). $SCV_ACP_OUT writes the captures elsewhere.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  configureClaude,
  configureCodex,
  configureForMock,
  type MockConfig,
  type MockConfigOptions,
  type RealCli,
} from "../clis.js";
import { baseEnv, realBinDir, runCli, tempHome } from "../env.js";
import { linkCopilotCache, sharedCopilotPkg } from "../harness.js";
import { type MockMode, type MockServer, type MockShape, startMock } from "../mock/server.mjs";
import { PROBE_FILE } from "../mock/tools.mjs";
import { type Answer, type Json, RawAcp } from "./rpc.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const OUT = process.env.SCV_ACP_OUT ?? join(REPO, "test", "fixtures", "acp");

interface Profile {
  /** The CLI whose mock recipe configures it. */
  readonly base: RealCli;
  readonly shape: MockShape;
  readonly model: string;
  /** The ACP launch. */
  readonly acp: (bin: string) => string[];
  /** A per-turn process turn with the same setup, for the timing comparison. */
  readonly processTurn?: (bin: string, prompt: string) => string[];
  /** Lives outside the pinned install (an adapter). */
  readonly adapter?: boolean;
  /** What the launch needs besides the mock recipe's variables (an adapter: the pinned CLI to drive). */
  readonly env?: (bin: string) => Record<string, string>;
  /** Makes the CLI ask before running a shell command, where its default mode does not. */
  readonly askForShell?: (home: string) => void;
  /** What scv keeps in the home's settings before it starts the server (the row's acp.homeSettings). */
  readonly homeSettings?: (home: string) => void;
}

const NODE = process.env.SCV_ACP_NODE ?? process.execPath;
const ADAPTERS = process.env.SCV_ACP_ADAPTERS ?? "/tmp/acp-adapters";

const PROFILES: Record<string, Profile> = {
  gemini: {
    base: "gemini",
    shape: "gemini",
    model: "gemini-2.5-flash",
    acp: (bin) => [join(bin, "gemini"), "--acp", "--skip-trust", "-m", "gemini-2.5-flash"],
    processTurn: (bin, prompt) => [
      join(bin, "gemini"),
      "-p",
      prompt,
      "-m",
      "gemini-2.5-flash",
      "--output-format",
      "stream-json",
      "--yolo",
      "--skip-trust",
    ],
  },
  qwen: {
    base: "qwen",
    shape: "openai-chat",
    model: "mock-model",
    acp: (bin) => [join(bin, "qwen"), "--acp", "-m", "mock-model"],
    processTurn: (bin, prompt) => [
      join(bin, "qwen"),
      "-p",
      prompt,
      "-m",
      "mock-model",
      "--output-format",
      "stream-json",
      "--yolo",
    ],
  },
  opencode: {
    base: "opencode",
    shape: "openai-chat",
    model: "mock/mock-model",
    acp: (bin) => [join(bin, "opencode"), "acp"],
    processTurn: (bin, prompt) => [
      join(bin, "opencode"),
      "run",
      "--format",
      "json",
      "-m",
      "mock/mock-model",
      prompt,
    ],
    askForShell(home) {
      // OpenCode allows every tool unless its config says `ask` (https://opencode.ai/docs/permissions).
      const file = join(home, ".config", "opencode", "opencode.json");
      const config = JSON.parse(readFileSync(file, "utf8")) as Json;
      writeFileSync(file, `${JSON.stringify({ ...config, permission: { bash: "ask" } }, null, 2)}\n`);
    },
  },
  copilot: {
    base: "copilot",
    shape: "openai-chat",
    model: "mock-model",
    acp: (bin) => [
      join(bin, "copilot"),
      "--acp",
      "--model",
      "mock-model",
      "--no-auto-update",
      "--disable-client-telemetry",
    ],
    processTurn: (bin, prompt) => [
      join(bin, "copilot"),
      "-p",
      prompt,
      "--model",
      "mock-model",
      "--allow-all-tools",
      "--output-format",
      "json",
      "--no-auto-update",
      "--disable-client-telemetry",
    ],
  },
  "claude-acp": {
    base: "claude",
    shape: "anthropic",
    model: "sonnet",
    adapter: true,
    acp: () => [
      NODE,
      join(ADAPTERS, "node_modules", "@agentclientprotocol", "claude-agent-acp", "dist", "index.js"),
    ],
    env: (bin) => ({ CLAUDE_CODE_EXECUTABLE: join(bin, "claude") }),
    processTurn: (bin, prompt) => [
      join(bin, "claude"),
      "-p",
      prompt,
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "sonnet",
      "--permission-mode",
      "bypassPermissions",
    ],
  },
  "codex-acp": {
    base: "codex",
    shape: "openai-responses",
    model: "gpt-5.5",
    adapter: true,
    acp: () => [
      NODE,
      join(ADAPTERS, "node_modules", "@agentclientprotocol", "codex-acp", "dist", "index.js"),
    ],
    env: (bin) => ({ CODEX_PATH: join(bin, "codex") }),
    processTurn: (bin, prompt) => [
      join(bin, "codex"),
      "exec",
      "--json",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      prompt,
    ],
  },
  "pi-acp": {
    base: "pi",
    shape: "openai-chat",
    model: "mock/mock-model",
    adapter: true,
    acp: () => [NODE, join(ADAPTERS, "node_modules", "pi-acp", "dist", "index.js")],
    // pi 1.6.0 runs on the Node first on PATH (22.19 or newer).
    env: (bin) => ({ PI_ACP_PI_COMMAND: join(bin, "pi") }),
    processTurn: (bin, prompt) => [
      join(bin, "pi"),
      "-p",
      "--mode",
      "json",
      "--model",
      "mock/mock-model",
      prompt,
    ],
    homeSettings(home) {
      // Else the adapter sends its startup summary as message text, after the first prompt.
      const file = join(home, ".pi", "agent", "settings.json");
      const settings = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Json) : {};
      writeFileSync(file, `${JSON.stringify({ ...settings, quietStartup: true }, null, 2)}\n`);
    },
  },
};

/** Nothing beyond loopback: a proxy nobody listens on, the mock reached directly. */
const OFFLINE = {
  HTTP_PROXY: "http://127.0.0.1:9",
  HTTPS_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost",
};

const INITIALIZE = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "scv-capture", version: "0.0.0" },
};

interface Lab {
  readonly name: string;
  readonly profile: Profile;
  readonly bin: string;
  readonly home: string;
  readonly cwd: string;
  readonly mock: MockServer;
  config: MockConfig;
  readonly state: Record<string, unknown>;
}

interface CaseRecord {
  readonly notes: Json;
  readonly acp?: RawAcp;
}

type Step = (lab: Lab) => Promise<CaseRecord>;

/** The permission answer: the first option of `kind`, else the first option. */
function choose(params: Json, kind: string): Answer {
  const options = (Array.isArray(params.options) ? params.options : []) as Json[];
  const option = options.find((candidate) => candidate.kind === kind) ?? options[0];
  return { result: { outcome: { outcome: "selected", optionId: option?.optionId ?? "" } } };
}

async function launch(lab: Lab): Promise<RawAcp> {
  lab.profile.homeSettings?.(lab.home);
  const env = baseEnv(lab.home, lab.bin, { ...OFFLINE, ...lab.config.env, ...lab.profile.env?.(lab.bin) });
  if (lab.profile.adapter) env.PATH = [dirname(NODE), env.PATH].join(":");
  return new RawAcp(lab.profile.acp(lab.bin), { cwd: lab.cwd, env });
}

/** initialize then session/new; their answers and times. */
async function open(
  lab: Lab,
  acp: RawAcp,
): Promise<{ notes: Json; sessionId: string | undefined; session: Json }> {
  const init = await acp.request("initialize", INITIALIZE, 60_000);
  const created = await acp.request("session/new", { cwd: lab.cwd, mcpServers: [] }, 60_000);
  const session = ("result" in created ? created.result : {}) as Json;
  const sessionId = typeof session.sessionId === "string" ? session.sessionId : undefined;
  return {
    notes: { initializeMs: init.ms, newSessionMs: created.ms, readyMs: acp.now() },
    sessionId,
    session,
  };
}

function prompt(acp: RawAcp, sessionId: string, text: string, timeoutMs = 120_000) {
  return acp.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }, timeoutMs);
}

function summary(answer: Answer & { ms: number }): Json {
  return "error" in answer
    ? { ms: answer.ms, error: answer.error }
    : { ms: answer.ms, result: answer.result };
}

function mockSince(lab: Lab, from: number): Json[] {
  return lab.mock.requests.slice(from).map((request) => ({
    seq: request.seq,
    ts: request.ts,
    path: request.path,
    kind: request.kind,
    mode: request.mode,
    status: request.status,
    reply: request.reply,
    model: (request.body as Json | null)?.model ?? null,
  }));
}

/** The config option or mode that grants every permission, as the session offers it: a
 * `permissions` option (Copilot's allow_all), else a mode named for it (yolo, bypassPermissions,
 * full access). Not Copilot's autopilot: it also makes the agent go on by itself. */
function fullPermission(session: Json): { method: string; params: Json } | undefined {
  const sessionId = session.sessionId;
  const FULL = /yolo|bypass|full|allow|^on$|never/i;
  const options = (Array.isArray(session.configOptions) ? session.configOptions : []) as Json[];
  for (const option of options.filter((candidate) => candidate.category === "permissions")) {
    const values = (Array.isArray(option.options) ? option.options : []) as Json[];
    const full = values.find((value) => FULL.test(String(value.value)));
    if (full !== undefined)
      return {
        method: "session/set_config_option",
        params: { sessionId, configId: option.id, value: full.value },
      };
  }
  const modes = (session.modes as Json | undefined)?.availableModes;
  if (Array.isArray(modes)) {
    const mode = (modes as Json[]).find((candidate) => FULL.test(String(candidate.id)));
    if (mode !== undefined) return { method: "session/set_mode", params: { sessionId, modeId: mode.id } };
  }
  return undefined;
}

const CASES: Record<string, Step> = {
  /** A first turn and two more on the same warm session. */
  async turn(lab) {
    lab.mock.setMode("ok");
    const from = lab.mock.requests.length;
    const acp = await launch(lab);
    const opened = await open(lab, acp);
    if (opened.sessionId === undefined) return { acp, notes: { ...opened.notes, session: opened.session } };
    lab.state.sessionId = opened.sessionId;
    const prompts = [];
    for (const text of ["Say hi", "Say hi again", "And once more"])
      prompts.push(summary(await prompt(acp, opened.sessionId, text)));
    const closed = await acp.close();
    return { acp, notes: { ...opened.notes, prompts, closed, mock: mockSince(lab, from) } };
  },

  /** A tool call under the session's default mode: the permission request, allowed once. */
  async "tool-default"(lab) {
    return toolCase(lab, "allow_once", false);
  },

  /** After switching to the mode that always asks (`default`), where the session starts in another
   * (Qwen Code and the Claude adapter start in `auto`, where a classifier decides). */
  async "tool-manual"(lab) {
    return toolCase(lab, "allow_once", false, "default");
  },

  /** Where the default mode runs shell commands without asking: after configuring it to ask. */
  async "tool-ask"(lab) {
    if (lab.profile.askForShell === undefined) throw new Error(`${lab.name} asks under its default mode`);
    lab.profile.askForShell(lab.home);
    return toolCase(lab, "allow_once", false);
  },

  /** The same, rejected. */
  async "tool-reject"(lab) {
    return toolCase(lab, "reject_once", false);
  },

  /** A tool call after switching the session to its full-permission mode. */
  async "tool-full"(lab) {
    return toolCase(lab, "reject_once", true);
  },

  /** A fresh process continues the `turn` session through session/load. */
  async load(lab) {
    const sessionId = lab.state.sessionId;
    if (typeof sessionId !== "string") throw new Error("run the turn case first");
    lab.mock.setMode("ok");
    const from = lab.mock.requests.length;
    const acp = await launch(lab);
    const init = await acp.request("initialize", INITIALIZE, 60_000);
    const loaded = await acp.request("session/load", { sessionId, cwd: lab.cwd, mcpServers: [] }, 60_000);
    const replayed = acp.notifications.length;
    const answer = await prompt(acp, sessionId, "After the load");
    const last = lab.mock.generationRequests().at(-1);
    const historySeen =
      last?.rawBody.includes("Say hi again") === true && last.rawBody.includes("After the load");
    const closed = await acp.close();
    return {
      acp,
      notes: {
        initializeMs: init.ms,
        loadMs: loaded.ms,
        load: summary(loaded),
        replayedNotifications: replayed,
        prompt: summary(answer),
        historySeenByMock: historySeen,
        closed,
        mock: mockSince(lab, from),
      },
    };
  },

  async "auth-fail"(lab) {
    return errorCase(lab, "401", 90_000);
  },

  /** A 429 with the CLI's own retry settings, cancelled if it still retries after 60 s. */
  async "rate-limit"(lab) {
    return errorCase(lab, "429", 60_000);
  },

  /** A prompt the model never answers, cancelled after 3 s; then one more prompt on the session. */
  async cancel(lab) {
    lab.mock.setMode("hang");
    const from = lab.mock.requests.length;
    const acp = await launch(lab);
    const opened = await open(lab, acp);
    const sessionId = opened.sessionId ?? "";
    const pending = prompt(acp, sessionId, "Take your time");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const cancelledAt = acp.now();
    acp.notify("session/cancel", { sessionId });
    const answer = await pending;
    const answeredAt = acp.now();
    lab.mock.setMode("ok");
    const after = await prompt(acp, sessionId, "Are you still there");
    const closed = await acp.close();
    return {
      acp,
      notes: {
        ...opened.notes,
        cancelledPrompt: summary(answer),
        cancelToAnswerMs: answeredAt - cancelledAt,
        nextPrompt: summary(after),
        closed,
        mock: mockSince(lab, from),
      },
    };
  },

  /** Model selection: what the session offers, then a switch to another offered model. */
  async model(lab) {
    lab.mock.setMode("ok");
    const from = lab.mock.requests.length;
    const acp = await launch(lab);
    const opened = await open(lab, acp);
    const session = opened.session;
    const sessionId = opened.sessionId ?? "";
    const attempts: Json[] = [];
    const models = (session.models as Json | undefined)?.availableModels;
    const options = (Array.isArray(session.configOptions) ? session.configOptions : []) as Json[];
    const modelOption = options.find((option) => option.category === "model" || option.id === "model");
    if (modelOption !== undefined) {
      const values = (Array.isArray(modelOption.options) ? modelOption.options : []) as Json[];
      const flat = values.flatMap((value) =>
        Array.isArray(value.options) ? (value.options as Json[]) : [value],
      );
      const other = flat.find((value) => value.value !== modelOption.currentValue) ?? flat[0];
      for (const value of [other?.value, "no-such-model"]) {
        const params = { sessionId, configId: modelOption.id, value };
        attempts.push({
          method: "session/set_config_option",
          params,
          answer: summary(await acp.request("session/set_config_option", params)),
        });
      }
    } else if (Array.isArray(models)) {
      const current = (session.models as Json).currentModelId;
      const other = (models as Json[]).find((model) => model.modelId !== current) ?? (models as Json[])[0];
      for (const modelId of [other?.modelId, "no-such-model"]) {
        const params = { sessionId, modelId };
        attempts.push({
          method: "session/set_model",
          params,
          answer: summary(await acp.request("session/set_model", params)),
        });
      }
    }
    const answer = await prompt(acp, sessionId, "Which model");
    const closed = await acp.close();
    return {
      acp,
      notes: { ...opened.notes, attempts, prompt: summary(answer), closed, mock: mockSince(lab, from) },
    };
  },

  /** A 429 with the CLI's retries set to none in its own config (as the contract suite does). */
  async "rate-limit-once"(lab) {
    lab.config = await configure(lab.profile, { home: lab.home, mockUrl: lab.mock.url, retries: 0 });
    return errorCase(lab, "429", 60_000);
  },

  /** A 429 on the first generation request, then an answer, with the CLI's retries set to two: what
   * the server says of a retry it recovers from (pi-acp sends it as message text). */
  async "retry-recovered"(lab) {
    lab.config = await configure(lab.profile, { home: lab.home, mockUrl: lab.mock.url, retries: 2 });
    return errorCase(lab, ["429", "ok"], 60_000);
  },

  /** A 401 with the CLI's retries set to none (Claude Code retries a 401 by default). */
  async "auth-fail-once"(lab) {
    lab.config = await configure(lab.profile, { home: lab.home, mockUrl: lab.mock.url, retries: 0 });
    return errorCase(lab, "401", 60_000);
  },

  /** Per-turn process turns (the `-p` recipe) beside one cold ACP start and three warm prompts. */
  async timing(lab) {
    lab.mock.setMode("ok");
    const processTurns: Json[] = [];
    if (lab.profile.processTurn !== undefined) {
      for (const text of ["Say hi", "Say hi"]) {
        const env = baseEnv(lab.home, lab.bin, { ...OFFLINE, ...lab.config.env });
        const run = await runCli(lab.profile.processTurn(lab.bin, text), {
          cwd: lab.cwd,
          env,
          timeoutMs: 120_000,
        });
        processTurns.push({ ms: run.durationMs, code: run.code });
      }
    }
    const acp = await launch(lab);
    const opened = await open(lab, acp);
    const warm = [];
    for (const text of ["Say hi", "Say hi again", "And once more"])
      warm.push((await prompt(acp, opened.sessionId ?? "", text)).ms);
    const closed = await acp.close();
    const load = readFileSync("/proc/loadavg", "utf8").trim();
    return { notes: { processTurns, ...opened.notes, warmPromptMs: warm, closed, loadavg: load } };
  },
};

async function toolCase(lab: Lab, answer: string, full: boolean, modeId?: string): Promise<CaseRecord> {
  lab.mock.setMode("tool");
  const probe = join(lab.cwd, PROBE_FILE);
  rmSync(probe, { force: true });
  const from = lab.mock.requests.length;
  const acp = await launch(lab);
  const asked: Json[] = [];
  acp.onRequest = (method, params) => {
    if (method !== "session/request_permission")
      return { error: { code: -32601, message: `capture client does not implement ${method}` } };
    asked.push(params);
    return choose(params, answer);
  };
  const opened = await open(lab, acp);
  const sessionId = opened.sessionId ?? "";
  let switched: Json | undefined;
  if (modeId !== undefined) {
    const params = { sessionId, modeId };
    switched = {
      method: "session/set_mode",
      params,
      answer: summary(await acp.request("session/set_mode", params)),
    };
  }
  if (full) {
    const step = fullPermission(opened.session);
    switched =
      step === undefined
        ? { none: true }
        : { ...step, answer: summary(await acp.request(step.method, step.params)) };
  }
  const result = await prompt(acp, sessionId, "Run the probe command");
  const closed = await acp.close();
  return {
    acp,
    notes: {
      ...opened.notes,
      switched,
      permissionRequests: asked.length,
      answered: answer,
      commandRan: existsSync(probe),
      prompt: summary(result),
      closed,
      mock: mockSince(lab, from),
    },
  };
}

async function errorCase(lab: Lab, mode: MockMode | MockMode[], limitMs: number): Promise<CaseRecord> {
  lab.mock.setMode(mode);
  const from = lab.mock.requests.length;
  const acp = await launch(lab);
  const opened = await open(lab, acp);
  const sessionId = opened.sessionId ?? "";
  const sent = acp.now();
  const pending = prompt(acp, sessionId, "Say hi", limitMs + 30_000);
  let cancelledAt: number | undefined;
  const timer = setTimeout(() => {
    cancelledAt = acp.now();
    acp.notify("session/cancel", { sessionId });
  }, limitMs);
  const answer = await pending;
  clearTimeout(timer);
  const answeredAt = acp.now();
  lab.mock.setMode("ok");
  const closed = await acp.close();
  return {
    acp,
    notes: {
      ...opened.notes,
      prompt: summary(answer),
      promptMs: answeredAt - sent,
      cancelledAfterMs: cancelledAt === undefined ? null : cancelledAt - sent,
      generationRequests: lab.mock.requests.slice(from).filter((r) => r.kind === "generate").length,
      closed,
      mock: mockSince(lab, from),
    },
  };
}

function configure(profile: Profile, options: MockConfigOptions): Promise<MockConfig> {
  if (profile.base === "claude") return configureClaude(options);
  if (profile.base === "codex") return configureCodex(options);
  return configureForMock(profile.base, options);
}

/** Lab paths (and the machine's own home, where the CLIs are installed) as /home/user, the way
 * every fixture is written. */
function normalise(text: string, lab: Lab): string {
  return text
    .split(lab.home)
    .join("/home/user")
    .split(`${homedir()}/`)
    .join("/home/user/")
    .split(ADAPTERS)
    .join("<adapters>");
}

/** Lines longer than this (Qwen Code's `available_commands_update`, 560 KB of skill texts, the same
 * in every session) are kept in the `turn` capture only; elsewhere their list and `_meta` are
 * emptied and the `.json` says so. */
const ELIDE_OVER = 64 * 1024;

function elide(stdout: string, name: string): { text: string; elided: Json[] } {
  if (name === "turn") return { text: stdout, elided: [] };
  const elided: Json[] = [];
  const lines = stdout.split("\n").map((line, index) => {
    if (line.length <= ELIDE_OVER) return line;
    const message = JSON.parse(line) as { params?: { update?: Json } };
    const update = message.params?.update;
    if (update?.sessionUpdate !== "available_commands_update") return line;
    elided.push({
      line: index + 1,
      bytes: Buffer.byteLength(line),
      kept: "availableCommands and _meta emptied",
    });
    update.availableCommands = [];
    if (update._meta !== undefined) update._meta = {};
    return JSON.stringify(message);
  });
  return { text: lines.join("\n"), elided };
}

function save(lab: Lab, name: string, record: CaseRecord, argv: readonly string[]): void {
  const dir = join(OUT, lab.name);
  mkdirSync(dir, { recursive: true });
  const { acp } = record;
  const stream = (dir_: "in" | "out" | "err") =>
    normalise(
      (acp?.timeline ?? [])
        .filter((entry) => entry.dir === dir_)
        .map((entry) => entry.text)
        .join(""),
      lab,
    );
  if (acp !== undefined) {
    writeFileSync(join(dir, `${name}.stdin`), stream("in"));
    const stdout = elide(stream("out"), name);
    writeFileSync(join(dir, `${name}.stdout`), stdout.text);
    if (stdout.elided.length > 0) record.notes.elided = stdout.elided;
    writeFileSync(join(dir, `${name}.stderr`), stream("err"));
  }
  const order = (acp?.timeline ?? [])
    .filter((entry) => entry.dir !== "err")
    .map((entry) => {
      let summary = "";
      try {
        const message = JSON.parse(entry.text) as Json;
        const update = (message.params as Json | undefined)?.update as Json | undefined;
        summary = [
          message.method,
          message.id === undefined ? "" : `#${String(message.id)}`,
          update?.sessionUpdate,
        ]
          .filter((part) => part !== undefined && part !== "")
          .join(" ");
        if (summary === "" && message.id !== undefined)
          summary = `#${String(message.id)} ${"error" in message ? "error" : "result"}`;
      } catch {
        summary = "(not JSON)";
      }
      return [entry.dir, entry.t, summary];
    });
  const meta = {
    cli: lab.name,
    case: name,
    argv: argv
      .map((arg) => normalise(arg, lab))
      .map((arg) => arg.replace(lab.bin, "<bin>").replace(ADAPTERS, "<adapters>")),
    node: lab.profile.adapter ? NODE : process.execPath,
    env: [...Object.keys(lab.config.env), ...Object.keys(lab.profile.env?.(lab.bin) ?? {})],
    home: "/home/user",
    cwd: "/home/user/work",
    mockShape: lab.profile.shape,
    capturedAt: new Date().toISOString(),
    ...JSON.parse(normalise(JSON.stringify(record.notes), lab)),
    order,
  };
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(meta, null, 2)}\n`);
}

async function main(): Promise<void> {
  const [name, ...wanted] = process.argv.slice(2);
  const profile = name === undefined ? undefined : PROFILES[name];
  if (name === undefined || profile === undefined)
    throw new Error(`usage: capture.ts <${Object.keys(PROFILES).join("|")}> [case…]`);
  const bin = realBinDir();
  if (bin === undefined || !existsSync(bin))
    throw new Error("the pinned CLIs are not installed (npm run real:install)");
  const cases =
    wanted.length > 0
      ? wanted
      : Object.keys(CASES).filter(
          (name) =>
            (name !== "tool-ask" || profile.askForShell !== undefined) &&
            name !== "tool-manual" &&
            name !== "auth-fail-once",
        );
  await using home = await tempHome(`scv-acp-${name}-`);
  await using mock = await startMock({ shape: profile.shape });
  const config = await configure(profile, { home: home.home, mockUrl: mock.url });
  if (profile.base === "copilot") {
    const version = JSON.parse(
      readFileSync(join(dirname(dirname(bin)), ".scv-real-clis.json"), "utf8"),
    ).pins.find((pin: { cli: string }) => pin.cli === "copilot").version;
    linkCopilotCache(home.home, sharedCopilotPkg(bin, version));
  }
  const lab: Lab = { name, profile, bin, home: home.home, cwd: home.cwd, mock, config, state: {} };
  for (const caseName of cases) {
    const step = CASES[caseName];
    if (step === undefined)
      throw new Error(`unknown case ${caseName}; known: ${Object.keys(CASES).join(" ")}`);
    const started = Date.now();
    process.stderr.write(`${name} ${caseName} … `);
    const record = await step(lab);
    save(lab, caseName, record, profile.acp(bin));
    process.stderr.write(`${Date.now() - started} ms\n`);
  }
}

main().catch((error) => {
  process.stderr.write(
    `capture: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
