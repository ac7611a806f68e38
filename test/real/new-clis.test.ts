// The CLIs added for issue 40, pinned beside the others (scripts/real-clis.json), driven through scv.
// Cline, Kilo Code and Factory Droid reach the loopback mock through their rows' endpoint rendering
// alone (`base_url` and `api_key_env` in scv's config, no sign-in of their own): a turn, a continued
// one where the CLI resumes headless (Kilo), the one line refusing `-c` where it cannot (Cline,
// Droid), nothing left running (Cline's hub daemon), no canary on the wire. Auggie and Qoder talk only
// to their vendors: what needs no model is checked — their version, that they take scv's arguments,
// and that a signed-out turn is exit 4 with the sign-in hint.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageReportSchema } from "../../src/home/usage-totals.js";
import { filesHolding } from "../helpers/canaries.js";
import { describeRun, type Lab } from "./harness.js";
import {
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  requestsWith,
  turnResult,
  useEndpoint,
  wireText,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";

const REJECTED_ARGUMENT =
  /unknown option|unexpected argument|unknown argument|unrecognized (?:option|argument)|invalid option|did you mean/i;

/** Each mockable CLI: whether its headless turns continue, and how long a turn may take here (Kilo
 * takes about 22 s on an idle machine). */
const MOCKABLE = [
  { cli: "cline", continues: false, timeout: "120s" },
  { cli: "kilo", continues: true, timeout: "180s" },
  { cli: "droid", continues: false, timeout: "120s" },
] as const;

describe.skipIf(BIN === undefined).each(MOCKABLE)(
  "new CLI: scv → $cli through base_url",
  ({ cli, continues, timeout }) => {
    const who = named(cli);
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;
    let canary: string;
    const key = dummyKey(`${cli}-endpoint`);

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: "openai-chat" });
      canary = newCanary();
      lab = newLab(`${cli}-new`, canary, trap);
      useEndpoint(lab, cli, mock, key);
    });

    afterAll(async () => {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    it("completes a turn against the mock with the configured key only; -c as its row says", async () => {
      const prompt = `contract new-cli turn for ${cli}`;
      const run = await lab.scv(["delegate", cli, prompt, "--json", "--timeout", timeout], {
        limitMs: 240_000,
      });
      const rejected = run.stderr.split("\n").find((line) => REJECTED_ARGUMENT.test(line));
      expect(rejected, `${who} rejected an argument scv passes\n${describeRun(run)}`).toBeUndefined();
      const result = turnResult(run);
      expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
      expect(result.reply, `${who}: the mock's reply`).toMatch(/^MOCK-REPLY-\d+$/);
      expect(result.badLines, `${who}: lines its parser could not read`).toBe(0);
      const asked = requestsWith(mock, prompt);
      expect(asked.length, `${who}: the mock never got the prompt\n${describeRun(run)}`).toBeGreaterThan(0);
      for (const request of asked) expect(wireText(request), `${who}: the configured key`).toContain(key);
      expect(result.usage?.input ?? 0, `${who}: usage from its stream`).toBeGreaterThan(0);
      expect(result.usage?.output ?? 0, `${who}: output tokens from its stream`).toBeGreaterThan(0);
      // `scv usage` reads the turn back from its log, as the turn's result gave it.
      const usage = await lab.scv(["usage", "--json", "--by", "conversation"]);
      const group = usageReportSchema()
        .parse(JSON.parse(usage.stdout))
        .groups.find((each) => each.key === result.conversation);
      expect(group, `${who}: scv usage\n${describeRun(usage)}`).toMatchObject({
        turns: 1,
        failures: 0,
        input: result.usage?.input,
        output: result.usage?.output,
      });
      await expectNothingLeft(lab, cli, "the turn");

      const again = `contract new-cli continued turn for ${cli}`;
      const next = await lab.scv(
        ["delegate", "-c", result.conversation ?? "", again, "--json", "--timeout", timeout],
        {
          limitMs: 240_000,
        },
      );
      if (continues) {
        const continued = turnResult(next);
        expect(next.code, `${who}\n${describeRun(next)}`).toBe(0);
        expect(continued.session, `${who}: the same session`).toBe(result.session);
        const history = requestsWith(mock, again);
        expect(history.length, `${who}: the continued turn never reached the mock`).toBeGreaterThan(0);
        expect(
          history.some((request) => request.rawBody.includes(prompt)),
          `${who}: the first turn's prompt in the continued turn's history`,
        ).toBe(true);
      } else {
        expect(next.code, `${who}: -c refused\n${describeRun(next)}`).toBe(2);
        expect(next.stderr, describeRun(next)).toMatch(/cannot continue a conversation begun per turn/);
        expect(requestsWith(mock, again)).toEqual([]);
      }
      await expectNothingLeft(lab, cli, "the continued turn");

      for (const request of mock.requests) {
        expect(wireText(request).includes(canary), `${who}: an exported canary reached the endpoint`).toBe(
          false,
        );
      }
      expect(trap.requests, `${who}: followed an endpoint exported in scv's environment`).toEqual([]);
      expect(filesHolding(lab.root, key), `${who}: files holding the endpoint's key`).toEqual([]);
    });
  },
);

const VENDOR_ONLY = [
  { cli: "auggie", command: "auggie" },
  { cli: "qoder", command: "qodercli" },
] as const;

describe.skipIf(BIN === undefined).each(VENDOR_ONLY)(
  "new CLI, vendor only: $cli offline",
  ({ cli, command }) => {
    const who = named(command);
    let trap: MockServer;
    let lab: Lab;

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      lab = newLab(`${cli}-offline`, newCanary(), trap);
      lab.writeConfig("");
    });

    afterAll(async () => {
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    it("lists its version, takes scv's arguments, and a signed-out turn is exit 4 saying how to sign in", async () => {
      const list = await lab.scv(["agents", "list", "--json"], { limitMs: 120_000 });
      expect(list.code, describeRun(list)).toBe(0);
      const listing = (
        JSON.parse(list.stdout) as { name: string; version: string | null; checked: string }[]
      ).find((row) => row.name === cli);
      expect(listing?.checked).toBe("offline");
      expect(listing?.version, `${who}: its --version through scv`).toMatch(/^\d+\.\d+\.\d+/);

      const run = await lab.scv(["delegate", cli, "Say hi", "--json", "--timeout", "90s"], {
        limitMs: 150_000,
      });
      const rejected = `${run.stderr}\n${run.stdout}`
        .split("\n")
        .find((line) => REJECTED_ARGUMENT.test(line));
      expect(rejected, `${who} rejected an argument scv passes\n${describeRun(run)}`).toBeUndefined();
      expect(run.code, `${who}: signed out\n${describeRun(run)}`).toBe(4);
      expect(turnResult(run).error ?? "", describeRun(run)).toMatch(/log ?in|sign in/i);
      expect(trap.requests).toEqual([]);
      await expectNothingLeft(lab, cli, "the signed-out turn");
    });
  },
);

describe.skipIf(BIN === undefined)("new CLI: droid over ACP", () => {
  const who = named("droid");
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;
  let canary: string;
  const key = dummyKey("droid-acp");

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: "openai-chat" });
    canary = newCanary();
    lab = newLab("droid-acp", canary, trap);
    // Its ACP server wants a Factory key even for custom models: any, with its air gap on (lab).
    lab.writeConfig(
      [
        "[agents.droid]",
        'model = "custom:Mock-0"',
        'session_idle = "0"',
        "[agents.droid.env]",
        'FACTORY_API_KEY = "fk-dummy"',
        'FACTORY_AIRGAP_ENABLED = "1"',
        "",
      ].join("\n"),
    );
    const home = lab.agentHome("droid");
    mkdirSync(join(home, ".factory"), { recursive: true, mode: 0o700 });
    const model = {
      model: "mock-model",
      displayName: "Mock",
      provider: "generic-chat-completion-api",
      baseUrl: `${mock.url}/v1`,
      apiKey: key,
      maxOutputTokens: 4096,
    };
    writeFileSync(join(home, ".factory", "settings.json"), JSON.stringify({ customModels: [model] }), {
      mode: 0o600,
    });
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("completes a turn over its ACP server and continues it there (its sessions load offline)", async () => {
    const prompt = "contract droid ACP turn";
    const run = await lab.scv(
      ["delegate", "droid", "--transport", "acp", prompt, "--json", "--timeout", "120s"],
      {
        limitMs: 200_000,
      },
    );
    const result = turnResult(run);
    expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
    expect(result.reply).toMatch(/^MOCK-REPLY-\d+$/);
    expect(requestsWith(mock, prompt).length, `${who}: the mock never got the prompt`).toBeGreaterThan(0);

    const again = "contract droid ACP continued turn";
    const next = await lab.scv(
      ["delegate", "-c", result.conversation ?? "", again, "--json", "--timeout", "120s"],
      {
        limitMs: 200_000,
      },
    );
    expect(next.code, `${who}\n${describeRun(next)}`).toBe(0);
    const history = requestsWith(mock, again);
    expect(history.length, `${who}: the continued turn never reached the mock`).toBeGreaterThan(0);
    expect(history.some((request) => request.rawBody.includes(prompt))).toBe(true);
    await expectNothingLeft(lab, "droid", "the ACP turns");
    for (const request of mock.requests) expect(wireText(request).includes(canary)).toBe(false);
    expect(trap.requests).toEqual([]);
  }, 480_000);
});

/** Cline's and Kilo's ACP servers take no endpoint from scv (their rows say so): each gets the mock
 * through its own files in its agent home, and Cline its provider through [agents.cline.env]. */
const ACP_SETUPS = [
  {
    cli: "cline",
    env: (key: string) => ({ CLINE_PROVIDER: "openai-compatible", CLINE_API_KEY: key }),
    files: (url: string, key: string) => ({
      ".cline/data/settings/providers.json": {
        version: 1,
        lastUsedProvider: "openai-compatible",
        modes: {},
        providers: {
          "openai-compatible": {
            settings: { provider: "openai-compatible", apiKey: key, model: "mock-model", baseUrl: url },
            updatedAt: "2026-12-07T00:00:00.000Z",
            tokenSource: "manual",
          },
        },
      },
    }),
  },
  {
    cli: "kilo",
    env: (_key: string) => ({}),
    files: (url: string, key: string) => ({
      ".config/kilo/kilo.json": {
        autoupdate: false,
        share: "disabled",
        model: "mock/mock-model",
        small_model: "mock/mock-model",
        provider: {
          mock: {
            npm: "@ai-sdk/openai-compatible",
            name: "Mock",
            options: { baseURL: url, apiKey: key },
            models: { "mock-model": { name: "Mock Model" } },
          },
        },
      },
    }),
  },
] as const;

describe.skipIf(BIN === undefined).each(ACP_SETUPS)("new CLI: $cli over ACP", ({ cli, env, files }) => {
  const who = named(cli);
  let trap: MockServer;
  let mock: MockServer;
  let lab: Lab;
  let canary: string;
  const key = dummyKey(`${cli}-acp`);

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    mock = await startMock({ shape: "openai-chat" });
    canary = newCanary();
    lab = newLab(`${cli}-acp`, canary, trap);
    const variables = Object.entries(env(key)).map(([name, value]) => `${name} = ${JSON.stringify(value)}`);
    lab.writeConfig(
      [
        `[agents.${cli}]`,
        'session_idle = "0"',
        ...(variables.length > 0 ? [`[agents.${cli}.env]`, ...variables] : []),
        "",
      ].join("\n"),
    );
    for (const [path, content] of Object.entries(files(`${mock.url}/v1`, key))) {
      const file = join(lab.agentHome(cli), path);
      mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
      writeFileSync(file, JSON.stringify(content), { mode: 0o600 });
    }
  });

  afterAll(async () => {
    await mock?.close();
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  it("completes a turn over its ACP server and continues it there", async () => {
    const prompt = `contract ${cli} ACP turn`;
    const run = await lab.scv(
      ["delegate", cli, "--transport", "acp", prompt, "--json", "--timeout", "150s"],
      {
        limitMs: 220_000,
      },
    );
    const result = turnResult(run);
    expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
    expect(result.reply).toMatch(/^MOCK-REPLY-\d+$/);
    expect(requestsWith(mock, prompt).length, `${who}: the mock never got the prompt`).toBeGreaterThan(0);

    const again = `contract ${cli} ACP continued turn`;
    const next = await lab.scv(
      ["delegate", "-c", result.conversation ?? "", again, "--json", "--timeout", "150s"],
      {
        limitMs: 220_000,
      },
    );
    expect(next.code, `${who}\n${describeRun(next)}`).toBe(0);
    const history = requestsWith(mock, again);
    expect(history.length, `${who}: the continued turn never reached the mock`).toBeGreaterThan(0);
    expect(history.some((request) => request.rawBody.includes(prompt))).toBe(true);
    await expectNothingLeft(lab, cli, "the ACP turns");
    for (const request of mock.requests) expect(wireText(request).includes(canary)).toBe(false);
    expect(trap.requests).toEqual([]);
  }, 540_000);
});
