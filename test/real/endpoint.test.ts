// An endpoint of the user's own, configured only through scv's config — `base_url` and `api_key_env`
// under `[agents.<cli>]`, the key exported in scv's environment — with each pinned real CLI: the CLI
// reaches the loopback mock with that key and completes a turn and a continued one, with no sign-in of
// its own and no file of its home written by hand. Where scv holds a key of the CLI's own sign-in
// (`agents login --with-api-key`: claude, codex, gemini, qwen), that key never reaches the endpoint;
// neither does any credential exported in scv's environment, and nothing follows an exported endpoint
// (the trap). The endpoint's key is in no file anywhere in the lab afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesHolding } from "../helpers/canaries.js";
import { MOCK_SHAPE } from "./clis.js";
import { describeRun, type Lab, linkCopilotCache, sharedCopilotPkg } from "./harness.js";
import {
  BIN,
  dummyKey,
  expectNothingLeft,
  expectTurn,
  named,
  newCanary,
  newLab,
  pinVersion,
  requestsWith,
  rootSandbox,
  wireText,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

/** The model each CLI is given: the endpoint's own id (scv names it as the CLI's provider needs). */
const MODEL = {
  claude: "sonnet",
  codex: "gpt-5.5",
  pi: "mock-model",
  gemini: "gemini-2.5-flash",
  qwen: "mock-model",
  opencode: "mock-model",
  copilot: "mock-model",
} as const;

/** Variables the lab needs that are no part of the endpoint: offline npm for OpenCode's plugin
 * install, Claude Code's sandbox declaration as root. */
function labEnv(profile: Profile): Record<string, string> {
  return {
    ...(profile.cli === "opencode" ? { npm_config_offline: "true" } : {}),
    ...rootSandbox(profile.cli),
  };
}

describe.skipIf(BIN === undefined).each(PROFILES)("endpoint: scv → $cli through base_url", (profile) => {
  const { cli } = profile;
  const who = named(cli);
  const entry = row(cli);
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;
  let canary: string;
  const key = dummyKey(`${cli}-endpoint`);
  const stored = dummyKey(`${cli}-stored`);

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: MOCK_SHAPE[cli] });
    canary = newCanary();
    lab = newLab(`${cli}-endpoint`, canary, trap);
    lab.env.MY_ENDPOINT_KEY = key;
    const api = entry.endpoint.kind === "supported" ? entry.endpoint.api : "unsupported";
    const url = api.startsWith("openai") ? `${mock.url}/v1` : mock.url;
    const env = Object.entries(labEnv(profile)).map(([name, value]) => `${name} = ${JSON.stringify(value)}`);
    lab.writeConfig(
      [
        `[agents.${cli}]`,
        `base_url = ${JSON.stringify(url)}`,
        `api_key_env = "MY_ENDPOINT_KEY"`,
        `model = ${JSON.stringify(MODEL[cli])}`,
        // No warm ACP session outlives a turn: every turn is checked for leftovers.
        `session_idle = "0"`,
        ...(env.length === 0 ? [] : [`[agents.${cli}.env]`, ...env]),
        "",
      ].join("\n"),
    );
    if (cli === "copilot") linkCopilotCache(lab.agentHome(cli), sharedCopilotPkg(BIN ?? "", pinVersion(cli)));
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("completes a turn and a continued one against the mock with the configured key only", async () => {
    if (profile.signIn === "api-key") {
      // A key of the CLI's own sign-in, which the endpoint must never get.
      const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${stored}\n` });
      expect(login.code, describeRun(login)).toBe(0);
    }
    const prompt = `contract endpoint turn for ${cli}`;
    const run = await lab.scv(["delegate", cli, prompt, "--json", "--timeout", profile.turnTimeout], {
      limitMs: 180_000,
    });
    const result = expectTurn(cli, run, 0);
    expect(result.reply, `${who}: the mock's reply`).toMatch(/^MOCK-REPLY-\d+$/);
    const asked = requestsWith(mock, prompt);
    expect(asked.length, `${who}: the mock never got the prompt\n${describeRun(run)}`).toBeGreaterThan(0);
    for (const request of asked) expect(wireText(request), `${who}: the configured key`).toContain(key);
    await expectNothingLeft(lab, cli, "the endpoint turn");

    const again = `contract endpoint continued turn for ${cli}`;
    const next = await lab.scv(
      ["delegate", "-c", result.conversation ?? "", again, "--json", "--timeout", profile.turnTimeout],
      { limitMs: 180_000 },
    );
    const continued = expectTurn(cli, next, 0);
    expect(continued.session, `${who}: the same session`).toBe(result.session);
    const history = requestsWith(mock, again);
    expect(history.length, `${who}: the continued turn never reached the mock`).toBeGreaterThan(0);
    expect(
      history.some((request) => request.rawBody.includes(prompt)),
      `${who}: the first turn's prompt in the continued turn's history`,
    ).toBe(true);
    await expectNothingLeft(lab, cli, "the continued endpoint turn");

    for (const request of mock.requests) {
      const wire = wireText(request);
      const at = `request ${request.seq} (${request.method} ${request.url})`;
      expect(
        wire.includes(canary),
        `${who}: an exported canary credential reached the endpoint in ${at}`,
      ).toBe(false);
      expect(wire.includes(stored), `${who}: the key of its own sign-in reached the endpoint in ${at}`).toBe(
        false,
      );
    }
    expect(trap.requests, `${who}: followed an endpoint exported in scv's environment`).toEqual([]);
    expect(filesHolding(lab.root, key), `${who}: files holding the endpoint's key`).toEqual([]);
  });

  it.runIf(entry.endpoint.kind === "supported" && entry.endpoint.acp)(
    "over ACP too, where its row says the rendering reaches its ACP server",
    async () => {
      const prompt = `contract endpoint ACP turn for ${cli}`;
      const run = await lab.scv(
        ["delegate", cli, "--transport", "acp", prompt, "--json", "--timeout", profile.turnTimeout],
        { limitMs: 180_000 },
      );
      expect(run.code, describeRun(run)).toBe(0);
      const asked = requestsWith(mock, prompt);
      expect(asked.length, `${who}: the mock never got the ACP prompt`).toBeGreaterThan(0);
      for (const request of asked) expect(wireText(request), `${who}: the configured key`).toContain(key);
      await expectNothingLeft(lab, cli, "the ACP endpoint turn");
      expect(filesHolding(lab.root, key), `${who}: files holding the endpoint's key`).toEqual([]);
    },
  );
});
