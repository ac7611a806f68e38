// The CLIs added for issue 40, pinned beside the others (scripts/real-clis.json), driven through scv.
// Cline, Kilo Code and Factory Droid reach the loopback mock through their rows' endpoint rendering
// alone (`base_url` and `api_key_env` in scv's config, no sign-in of their own): a turn, a continued
// one where the CLI resumes headless (Kilo), the one line refusing `-c` where it cannot (Cline,
// Droid), nothing left running (Cline's hub daemon), no canary on the wire. Auggie and Qoder talk only
// to their vendors: what needs no model is checked — their version, that they take scv's arguments,
// and that a signed-out turn is exit 4 with the sign-in hint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
