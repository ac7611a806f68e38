// Setting up an ACP session from the `session/new` answers real servers gave (test/fixtures/acp/):
// which request sets the policy's mode, the model and the effort, and what is refused before any
// request because the session does not offer it.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AcpAgent, SessionAnswer } from "../../../src/acp/client/agent.js";
import {
  offeredChoices,
  readSessionState,
  refuseUnoffered,
  type SessionSetup,
  setUpSession,
} from "../../../src/acp/client/session-setup.js";
import type { AcpFullPermission } from "../../../src/adapters.js";
import { ScvError } from "../../../src/errors.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "acp");

/** The `session/new` answer in a capture: the answer to the client's request #1. */
function sessionAnswer(cli: string, name = "model"): SessionAnswer {
  for (const line of readFileSync(join(FIXTURES, cli, `${name}.stdout`), "utf8").split("\n")) {
    if (line === "") continue;
    const message = JSON.parse(line) as { id?: number; result?: Record<string, unknown> };
    if (message.id === 1 && message.result !== undefined)
      return { sessionId: String(message.result.sessionId), raw: message.result };
  }
  throw new Error(`no session/new answer in ${cli}/${name}`);
}

/** An agent that records requests and answers each with `{}`. */
function recorder(): { agent: AcpAgent; sent: { method: string; params: Record<string, unknown> }[] } {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const agent = {
    request: async (method: string, params: Record<string, unknown>) => {
      sent.push({ method, params });
      return {};
    },
  } as unknown as AcpAgent;
  return { agent, sent };
}

function setup(
  cli: string,
  full: AcpFullPermission,
  extra: Partial<SessionSetup> = {},
): { run: () => Promise<string | undefined>; sent: { method: string; params: Record<string, unknown> }[] } {
  const { agent, sent } = recorder();
  const session = sessionAnswer(cli);
  const run = () =>
    setUpSession({ agent, session, product: cli, name: cli, policy: "default", full, ...extra });
  return { run, sent };
}

describe("a session's own account of itself", () => {
  it("Qwen Code: modes, the model list and the config options", () => {
    const state = readSessionState(sessionAnswer("qwen").raw);
    expect(state.mode).toBe("auto");
    expect(state.modes).toEqual(["plan", "default", "auto-edit", "auto", "yolo"]);
    expect(state.models).toEqual([{ value: "$runtime|openai|mock-model(openai)", name: "mock-model" }]);
    expect(state.options.map((option) => option.category)).toEqual(["mode", "model"]);
  });

  it("Copilot CLI: the mode from its mode option, the permissions option", () => {
    const state = readSessionState(sessionAnswer("copilot").raw);
    expect(state.mode).toBe("https://agentclientprotocol.com/protocol/session-modes#agent");
    expect(state.options.find((option) => option.id === "allow_all")?.current).toBe("off");
  });
});

describe("policy auto", () => {
  it("Gemini CLI: session/set_mode yolo", async () => {
    const { run, sent } = setup("gemini", { kind: "mode", mode: "yolo" }, { policy: "auto" });
    expect(await run()).toBe("yolo");
    expect(sent).toEqual([
      {
        method: "session/set_mode",
        params: { sessionId: sessionAnswer("gemini").sessionId, modeId: "yolo" },
      },
    ]);
  });

  it("Copilot CLI: session/set_config_option allow_all on", async () => {
    const { run, sent } = setup(
      "copilot",
      { kind: "option", option: "allow_all", value: "on" },
      { policy: "auto" },
    );
    await run();
    expect(sent.map((each) => [each.method, each.params.configId, each.params.value])).toEqual([
      ["session/set_config_option", "allow_all", "on"],
    ]);
  });

  it("a mode the session does not offer is refused, naming the ones it does", async () => {
    const { run, sent } = setup("gemini", { kind: "mode", mode: "bypassPermissions" }, { policy: "auto" });
    await expect(run()).rejects.toThrow(
      "gemini's session offers no mode bypassPermissions (it offers: default, autoEdit, yolo, plan), so --policy auto cannot be honoured — use --policy default, or --transport process",
    );
    expect(sent).toEqual([]);
  });
});

describe("model and effort", () => {
  it("Qwen Code: a model named as the list names it is set by its id", async () => {
    const { run, sent } = setup("qwen", { kind: "mode", mode: "yolo" }, { model: "mock-model" });
    await run();
    // Already the current one: nothing to send.
    expect(sent).toEqual([]);
  });

  it("the Claude adapter: model and effort through its config options", async () => {
    const { run, sent } = setup(
      "claude-acp",
      { kind: "mode", mode: "bypassPermissions" },
      {
        model: "opus",
        effort: "high",
      },
    );
    await run();
    expect(sent.map((each) => [each.method, each.params.configId, each.params.value])).toEqual([
      ["session/set_config_option", "model", "opus"],
      ["session/set_config_option", "effort", "high"],
    ]);
  });

  it("Gemini CLI (which accepts any model id) gets only one it offers", async () => {
    const { run, sent } = setup("gemini", { kind: "mode", mode: "yolo" }, { model: "no-such-model" });
    const error = await run().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).message).toMatch(
      /^gemini does not offer the model no-such-model over ACP — pick one it offers: auto, /,
    );
    expect(sent).toEqual([]);
  });

  it("an effort where the session has no thought_level option is refused", async () => {
    const { run } = setup("gemini", { kind: "mode", mode: "yolo" }, { effort: "high" });
    await expect(run()).rejects.toThrow("gemini takes no effort over ACP — omit --effort");
  });
});

describe("what is kept of a session's offers between turns (offeredChoices)", () => {
  const clis = ["claude-acp", "codex-acp", "copilot", "gemini", "opencode", "qwen"];

  /** The refusal (or none) `refuseUnoffered` gives from `answer` for a model and an effort. */
  function verdict(answer: Record<string, unknown>, wanted: { model?: string; effort?: string }) {
    try {
      refuseUnoffered(answer, "Agent", wanted);
      return "offered";
    } catch (error) {
      if (!(error instanceof ScvError)) throw error;
      return error.message;
    }
  }

  it.each(clis)("%s: the kept offers refuse and accept exactly what the whole answer does", (cli) => {
    const raw = sessionAnswer(cli).raw;
    const kept = offeredChoices(raw);
    const state = readSessionState(raw);
    const offered = [
      ...state.models.flatMap((model) => [model.value, model.name]),
      ...state.options.flatMap((option) => option.choices.flatMap((choice) => [choice.value, choice.name])),
    ];
    for (const model of [...offered, "no-such-model"])
      expect(verdict(kept, { model })).toBe(verdict(raw, { model }));
    for (const effort of [...offered, "high", "no-such-effort"])
      expect(verdict(kept, { effort })).toBe(verdict(raw, { effort }));
    // Smaller than the answer: no modes, descriptions or metadata.
    expect(JSON.stringify(kept).length).toBeLessThanOrEqual(JSON.stringify(raw).length);
  });

  it("Gemini CLI: an unknown model is refused with the ids it offers", () => {
    const kept = offeredChoices(sessionAnswer("gemini").raw);
    expect(verdict(kept, { model: "gemini-9-ultra" })).toMatch(
      /^Agent does not offer the model gemini-9-ultra over ACP — pick one it offers: auto, /,
    );
  });
});
