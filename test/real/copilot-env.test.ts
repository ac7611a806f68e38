// Copilot CLI takes its model endpoint only from environment variables (COPILOT_PROVIDER_*), so scv's
// per-agent environment (`[agents.copilot.env]` in its config) supplies them. The contract test shows the
// configured key is the one sent while a canary COPILOT_PROVIDER_API_KEY is exported; but the configured
// value is set after isolation and would win either way. This proves the isolation itself: with no key
// configured, the exported one still never reaches the CLI, nor does an exported endpoint.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE } from "./clis.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  requestsWith,
  turnResult,
  wireText,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const profile = PROFILES.find((candidate) => candidate.cli === "copilot");

describe.skipIf(BIN === undefined || profile === undefined)(
  "copilot: endpoint variables from scv's config only",
  () => {
    const who = named("copilot");
    let lab: Lab;
    let mock: MockServer;
    let trap: MockServer;
    let canary: string;

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: MOCK_SHAPE.copilot });
      canary = newCanary();
      lab = newLab("copilot-env", canary, trap);
    });

    afterAll(async () => {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    it("the configured key is sent, an exported COPILOT_PROVIDER_API_KEY never is", async () => {
      expect(lab.env.COPILOT_PROVIDER_API_KEY, "the canary is exported in scv's own environment").toBe(
        canary,
      );
      const key = dummyKey("copilot");
      const endpoint = await writeEndpoint(lab, profile ?? PROFILES[0]!, mock, key);
      lab.writeConfig(agentToml("copilot", { model: endpoint.config.model }, endpoint.agentEnv));
      const run = await lab.scv(
        ["delegate", "copilot", "contract copilot configured key", "--json", "--timeout", "90s"],
        {
          limitMs: 120_000,
        },
      );
      expect(run.code, describeRun(run)).toBe(0);
      const asked = requestsWith(mock, "contract copilot configured key");
      expect(asked.length, `${who}: the mock never got the prompt`).toBeGreaterThan(0);
      for (const request of asked) {
        expect(request.headers.authorization, `${who}: the configured key`).toBe(`Bearer ${key}`);
      }
      await expectNothingLeft(lab, "copilot", "the configured-key turn");

      // Now no key in scv's config at all: whatever copilot does without one, it must not use the canary.
      const { COPILOT_PROVIDER_API_KEY: _configured, ...withoutKey } = endpoint.agentEnv;
      lab.writeConfig(agentToml("copilot", { model: endpoint.config.model }, withoutKey));
      const from = mock.requests.length;
      const bare = await lab.scv(
        ["delegate", "copilot", "contract copilot no key", "--json", "--timeout", "60s"],
        {
          limitMs: 90_000,
        },
      );
      turnResult(bare);
      for (const request of mock.requests) {
        expect(
          wireText(request),
          `${who}: the exported COPILOT_PROVIDER_API_KEY reached the CLI`,
        ).not.toContain(canary);
      }
      expect(
        mock.requests.slice(from).map((request) => request.headers.authorization ?? "(none)"),
        `${who}: requests without a configured key`,
      ).not.toContain(`Bearer ${canary}`);
      expect(trap.requests, `${who}: followed the exported COPILOT_PROVIDER_BASE_URL`).toEqual([]);
      await expectNothingLeft(lab, "copilot", "the turn without a configured key");
    });
  },
);
