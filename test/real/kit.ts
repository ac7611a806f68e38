// Shared pieces of the contract suite: the pinned install, a lab signed in against a mock the way a user
// would do it, canary credentials in scv's own environment, reading `scv delegate --json` back, and the
// checks that turn "a flag or an event shape moved" into a message naming the CLI and its version.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { TurnResultJson as TurnResult } from "../../src/json-shapes.js";
import { turnResultShape } from "../../src/json-shapes.js";
import { agentEnvironment } from "../../src/transport/env.js";
import {
  type ClaudeMockOptions,
  type CodexMockOptions,
  configureClaude,
  configureCodex,
  configureForMock,
  MOCK_SHAPE,
  type MockConfig,
  type RealCli,
} from "./clis.js";
import { OPT_OUTS, realBinDir } from "./env.js";
import { describeRun, Lab, linkCopilotCache, type ScvRun, settle, sharedCopilotPkg } from "./harness.js";
import { type MockRequest, type MockServer, startMock } from "./mock/server.mjs";
import { type Profile, row } from "./profiles.js";

/** The pinned install's bin folder, or undefined (the suite is skipped) when nothing is installed. */
export const BIN: string | undefined = (() => {
  const bin = realBinDir();
  return bin !== undefined && existsSync(bin) ? bin : undefined;
})();

export interface Pin {
  readonly cli: string;
  readonly pkg: string;
  readonly version: string;
  /** The table row, when its name is not the executable's (scripts/real-clis.json). */
  readonly agent?: string;
  /** What `--version` answers, when it is not the package's version. */
  readonly reports?: string;
}

/** The pins of the finished install (its marker, written by scripts/install-real-clis.mjs). */
export function installedPins(bin: string): Pin[] {
  const marker = JSON.parse(readFileSync(join(dirname(dirname(bin)), ".scv-real-clis.json"), "utf8")) as {
    pins: Pin[];
  };
  return marker.pins;
}

export interface AdapterPin extends Pin {
  /** The pinned CLI this ACP adapter drives. */
  readonly drives: string;
}

/** The ACP adapters pinned beside the CLIs (none in a marker written before they were). */
export function installedAdapters(bin: string): AdapterPin[] {
  const marker = JSON.parse(readFileSync(join(dirname(dirname(bin)), ".scv-real-clis.json"), "utf8")) as {
    adapters?: AdapterPin[];
  };
  return marker.adapters ?? [];
}

/** `<cli> <pinned version>`, the prefix of every contract message. */
export function named(cli: string): string {
  const pin = BIN === undefined ? undefined : installedPins(BIN).find((candidate) => candidate.cli === cli);
  return `${cli} ${pin?.version ?? "(version unknown)"}`;
}

/** Credentials and endpoints a user may have exported in the shell that runs scv. None may reach a CLI:
 * the mock must never see the canary, and the trap mock must never see a request. */
export function canaryEnvironment(canary: string, trapUrl: string): Record<string, string> {
  return {
    ANTHROPIC_API_KEY: canary,
    ANTHROPIC_AUTH_TOKEN: canary,
    ANTHROPIC_BASE_URL: trapUrl,
    OPENAI_API_KEY: canary,
    OPENAI_BASE_URL: `${trapUrl}/v1`,
    CODEX_API_KEY: canary,
    GEMINI_API_KEY: canary,
    GOOGLE_API_KEY: canary,
    GOOGLE_GEMINI_BASE_URL: trapUrl,
    DASHSCOPE_API_KEY: canary,
    COPILOT_PROVIDER_API_KEY: canary,
    COPILOT_PROVIDER_BASE_URL: `${trapUrl}/v1`,
    COPILOT_GITHUB_TOKEN: canary,
    GH_TOKEN: canary,
  };
}

export function newCanary(): string {
  return `sk-CANARY${randomBytes(6).toString("hex")}`;
}

/** A fresh dummy key for one CLI. */
export function dummyKey(cli: string): string {
  return `sk-contract-${cli}-${randomBytes(6).toString("hex")}`;
}

export interface SignedLab {
  readonly lab: Lab;
  readonly key: string;
  readonly config: MockConfig;
  /** The `[agents.<cli>.env]` variables the suite puts in scv's config. */
  readonly agentEnv: Record<string, string>;
}

/** TOML for one `[agents.<name>]` table with an env sub-table. */
export function agentToml(
  name: string,
  settings: Record<string, string>,
  env: Record<string, string> = {},
): string {
  const lines = [
    `[agents.${name}]`,
    ...Object.entries(settings).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
  ];
  if (Object.keys(env).length > 0) {
    lines.push(`[agents.${name}.env]`, ...Object.entries(env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`));
  }
  return `${lines.join("\n")}\n`;
}

/** IS_SANDBOX=1 for Claude Code when running as root: it refuses bypassPermissions for uid 0 otherwise.
 * The suite sets it in scv's config; scv never sets it by itself. */
export function rootSandbox(cli: RealCli): Record<string, string> {
  return cli === "claude" && process.getuid?.() === 0 ? { IS_SANDBOX: "1" } : {};
}

/**
 * Writes the CLI's endpoint files into its agent home (the clis.ts recipe, without the key where scv's
 * login stores it) and returns the variables the recipe needs that scv does not set itself. A variable
 * scv sets too must have the recipe's value: that is the check that scv's home layout (CODEX_HOME,
 * CLAUDE_CONFIG_DIR, PI_CODING_AGENT_DIR, XDG_CONFIG_HOME) is where the recipes put the files.
 */
export async function writeEndpoint(
  lab: Lab,
  profile: Profile,
  mock: MockServer,
  key: string,
  /** The CLI's own retries: 0 keeps a failing turn short; "defaults" leaves the CLI's own. */
  retries: number | "defaults" = 0,
): Promise<{ config: MockConfig; agentEnv: Record<string, string> }> {
  const { cli } = profile;
  const home = lab.agentHome(cli);
  if (cli === "copilot") linkCopilotCache(home, sharedCopilotPkg(BIN ?? "", pinVersion("copilot")));
  const base = {
    home,
    mockUrl: mock.url,
    retries: retries === "defaults" ? undefined : retries,
    apiKey: key,
    withKey: profile.signIn === "files",
  };
  let config: MockConfig;
  if (cli === "codex") config = await configureCodex({ ...base, codexHome: home } satisfies CodexMockOptions);
  else if (cli === "claude") config = await configureClaude(base satisfies ClaudeMockOptions);
  else config = await configureForMock(cli, base);
  const scvSets = agentEnvironment({ parent: {}, entry: row(cli), home, policy: "default" });
  const agentEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.env)) {
    if (name === "IS_SANDBOX") continue;
    const ours = scvSets[name];
    if (ours === undefined) agentEnv[name] = value;
    else if (ours !== value) {
      throw new Error(
        `${named(cli)}: the recipe (test/real/clis.ts) expects ${name}=${value}, but scv sets ${name}=${ours} — scv's agent home layout and the CLI's recipe disagree`,
      );
    }
  }
  return { config, agentEnv: { ...agentEnv, ...rootSandbox(cli) } };
}

export function pinVersion(cli: string): string {
  const pin = BIN === undefined ? undefined : installedPins(BIN).find((candidate) => candidate.cli === cli);
  if (pin === undefined) throw new Error(`no pinned version of ${cli} in the install marker`);
  return pin.version;
}

/** A lab for `profile` with the canary environment exported, `[agents.<cli>]` in scv's config. */
export function newLab(cli: string, canary: string, trap: MockServer): Lab {
  if (BIN === undefined) throw new Error("the pinned CLIs are not installed");
  return new Lab(cli, { bin: BIN, env: { ...OPT_OUTS, ...canaryEnvironment(canary, trap.url) } });
}

/** `scv delegate … --json`, read back with scv's own result schema. */
export function turnResult(run: ScvRun): TurnResult {
  let value: unknown;
  try {
    value = JSON.parse(run.stdout);
  } catch {
    throw new Error(`scv delegate --json printed no JSON object\n${describeRun(run)}`);
  }
  const parsed = turnResultShape().safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `scv's --json object does not match its own schema: ${parsed.error.message}\n${describeRun(run)}`,
    );
  }
  return parsed.data;
}

const REJECTED_ARGUMENT =
  /unknown option|unexpected argument|unknown argument|unrecognized (?:option|argument)|invalid option|not enough arguments following|did you mean/i;

/**
 * What moved, as one message per problem naming the CLI and its version: an argument the CLI rejects
 * (its usage error on stderr or in scv's error line), stdout lines scv's parser could not read, a
 * missing or malformed session id.
 */
export function contractProblems(cli: RealCli, run: ScvRun, result: TurnResult | undefined): string[] {
  const problems: string[] = [];
  const who = named(cli);
  const entry = row(cli);
  const text = `${run.stderr}\n${result?.error ?? ""}`;
  const rejected = text.split("\n").find((line) => REJECTED_ARGUMENT.test(line));
  if (rejected !== undefined) {
    problems.push(
      `${who} rejected an argument scv passes: "${rejected.trim().slice(0, 300)}" — a flag moved; compare \`${cli} --help\` with its row in src/adapters.ts`,
    );
  }
  if (result === undefined) return problems;
  if (result.badLines > 0) {
    problems.push(
      `${who}: ${result.badLines} stdout line(s) scv's ${entry.output.kind} parser could not read — its event shape moved (src/parsers/)`,
    );
  }
  if (entry.resume.kind === "supported") {
    if (result.session === null || result.session === "") {
      problems.push(`${who}: scv found no session id in its output — the session event moved`);
    } else if (!entry.resume.idPattern.test(result.session)) {
      problems.push(
        `${who}: session id ${JSON.stringify(result.session)} is not the shape its row expects (${entry.resume.idPattern}) — the id format changed`,
      );
    }
  }
  return problems;
}

/** Fails with every contract problem of a turn, then with the turn's exit code when it is not `exit`. */
export function expectTurn(cli: RealCli, run: ScvRun, exit: number): TurnResult {
  const result = turnResult(run);
  const problems = contractProblems(cli, run, result);
  if (problems.length > 0) throw new Error(`${problems.join("\n")}\n${describeRun(run)}`);
  expect(run.code, `${named(cli)}: expected exit ${exit}\n${describeRun(run)}`).toBe(exit);
  expect(result.exitCode, describeRun(run)).toBe(exit);
  return result;
}

/** The generation requests whose body contains `text`. */
export function requestsWith(mock: MockServer, text: string, from = 0): MockRequest[] {
  return mock.requests
    .slice(from)
    .filter((request) => request.kind === "generate" && request.rawBody.includes(text));
}

/** Every place a credential can travel in a request. */
export function wireText(request: MockRequest): string {
  return `${JSON.stringify(request.headers)}\n${request.url}\n${request.rawBody}`;
}

/** No process of the lab is left; fails naming them. */
export async function expectNothingLeft(lab: Lab, cli: string, after: string): Promise<void> {
  const left = await settle(lab);
  expect(
    left,
    `${named(cli)}: processes still running after ${after}:\n${left.map((p) => `${p.pid} (${p.why}) ${p.command}`).join("\n")}`,
  ).toEqual([]);
}

export { MOCK_SHAPE };

/** A lab signed in (scv's login or the CLI's own files) with a dummy key against a loopback mock of its own (any other endpoint reaches
 * the trap), set up before the suite's tests and closed after them. Read its fields inside tests. */
export function signedInPerSuite(
  profile: Profile,
  retries: number | "defaults",
): { readonly lab: Lab; readonly mock: MockServer } {
  const { cli } = profile;
  const suite = {} as { lab: Lab; mock: MockServer; trap: MockServer };
  beforeAll(async () => {
    suite.trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    suite.mock = await startMock({ shape: MOCK_SHAPE[cli] });
    const key = dummyKey(cli);
    suite.lab = newLab(cli, newCanary(), suite.trap);
    const endpoint = await writeEndpoint(suite.lab, profile, suite.mock, key, retries);
    suite.lab.writeConfig(agentToml(cli, { model: endpoint.config.model }, endpoint.agentEnv));
    // A "files" CLI's key went into its own files with the endpoint.
    if (profile.signIn === "api-key") {
      const login = await suite.lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
      expect(login.code, describeRun(login)).toBe(0);
    }
  });
  afterAll(async () => {
    await suite.mock?.close();
    await suite.trap?.close();
    await suite.lab?.[Symbol.asyncDispose]();
  });
  return suite;
}

/** Points `cli` at `mock` only through scv's config (`base_url`, `api_key_env`), the key in scv's
 * environment as MY_ENDPOINT_KEY (the new CLIs' labs: new-clis*.test.ts). */
export function useEndpoint(lab: Lab, cli: string, mock: MockServer, key: string): void {
  lab.env.MY_ENDPOINT_KEY = key;
  lab.writeConfig(
    [
      `[agents.${cli}]`,
      `base_url = ${JSON.stringify(`${mock.url}/v1`)}`,
      `api_key_env = "MY_ENDPOINT_KEY"`,
      `model = "mock-model"`,
      `session_idle = "0"`,
      "",
    ].join("\n"),
  );
}
