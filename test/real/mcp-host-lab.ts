// The lab of the MCP host tests (mcp-host*.test.ts): scv's home with the real Codex signed in against a
// mock of its own, the delegated agent of every host's delegate call; mocks for the hosts' own models;
// and what a host's model was given of scv's tool result, read in the host's next model request.

import { afterAll, beforeAll, expect } from "vitest";
import { describeRun, type Lab, type ScvRun } from "./harness.js";
import { agentToml, dummyKey, newCanary, newLab, wireText, writeEndpoint } from "./kit.js";
import { type MockServer, startMock, toolResultText } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

export const CODEX_PROFILE = PROFILES.find((profile) => profile.cli === "codex");
/** What Codex's mock answers (the first answer is CODEX-SAYS-1). */
export const CODEX_SAYS = "CODEX-SAYS";
/** A job of scv's, as its results name it. */
export const JOB = /codex-[0-9a-z]{6}\.[0-9a-z]{8}/;

/** What the host's model was given of scv's tool result: the tool result its next request carries. */
export function modelSaw(host: MockServer, who: string, run: ScvRun): string {
  const given = host.requests
    .filter((request) => request.kind === "generate")
    .map((request) => toolResultText(host.shape, request.body))
    .find((text) => text !== undefined);
  expect(given, `${who} never sent scv's tool result to its model\n${describeRun(run)}`).toBeDefined();
  return given ?? "";
}

/** The JSON lines a host printed (its stream-json or JSONL events). */
export function jsonLines<T>(run: ScvRun): T[] {
  return run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as T);
}

/** The lab of one test file, made before its tests and checked and removed after them. */
export interface McpHostLab {
  readonly lab: Lab;
  /** The delegated Codex's mock. */
  readonly codexMock: MockServer;
  /** A mock for a host's own model, closed with the lab. */
  hostMock(options: Parameters<typeof startMock>[0]): Promise<MockServer>;
  /** The lab's environment without the canaries of the host's own vendor: a user's host has its own
   * key and endpoint (the rest stay, and must not reach the delegated agent). */
  hostEnvironment(prefixes: readonly string[]): Record<string, string>;
  /** The model was told its job still runs and to call wait with it; the job is then read whole. */
  toldToWait(saw: string): Promise<void>;
  /** Reads a job's result whole (`scv wait`), so nothing of it is left running or kept. */
  finish(saw: string): Promise<void>;
}

/** Makes the lab before the file's tests (Codex signed in inside scv's home, as a user does it); after
 * them, no exported canary reached the delegated Codex and nothing reached the trap. */
export function useMcpHostLab(name: string): McpHostLab {
  let trap: MockServer;
  let codexMock: MockServer;
  let lab: Lab;
  let canary: string;
  const hostMocks: MockServer[] = [];

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    codexMock = await startMock({ shape: "openai-responses", text: CODEX_SAYS });
    canary = newCanary();
    lab = newLab(name, canary, trap);
    const key = dummyKey("codex");
    const endpoint = await writeEndpoint(
      lab,
      CODEX_PROFILE as NonNullable<typeof CODEX_PROFILE>,
      codexMock,
      key,
    );
    lab.writeConfig(agentToml("codex", { model: endpoint.config.model }, endpoint.agentEnv));
    const login = await lab.scv(["agents", "login", "codex", "--with-api-key"], { input: `${key}\n` });
    expect(login.code, describeRun(login)).toBe(0);
  });

  afterAll(async () => {
    try {
      for (const request of codexMock?.requests ?? []) {
        expect(wireText(request), "an exported canary credential reached the delegated codex").not.toContain(
          canary,
        );
      }
      expect(trap?.requests.map((request) => `${request.method} ${request.url}`) ?? []).toEqual([]);
    } finally {
      for (const mock of [codexMock, trap, ...hostMocks]) await mock?.close();
      await lab?.[Symbol.asyncDispose]();
    }
  });

  const finish = async (saw: string): Promise<void> => {
    const job = JOB.exec(saw)?.[0];
    expect(job, saw.slice(0, 2000)).toBeDefined();
    const waited = await lab.scv(["wait", job ?? ""]);
    expect(waited.code, describeRun(waited)).toBe(0);
  };

  return {
    get lab() {
      return lab;
    },
    get codexMock() {
      return codexMock;
    },
    async hostMock(options) {
      const mock = await startMock(options);
      hostMocks.push(mock);
      return mock;
    },
    hostEnvironment(prefixes) {
      return Object.fromEntries(
        Object.entries(lab.env).filter(
          ([variable]) => !prefixes.some((prefix) => variable.startsWith(prefix)),
        ),
      );
    },
    async toldToWait(saw) {
      expect(saw, `what the model was given:\n${saw}`).toMatch(
        new RegExp(
          `codex is still working on job ${JOB.source}.*Call wait with job ${JOB.source} for its reply`,
        ),
      );
      await finish(saw);
    },
    finish,
  };
}
