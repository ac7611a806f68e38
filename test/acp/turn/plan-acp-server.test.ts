// The variable that points an official ACP adapter (claude-agent-acp, codex-acp) at the agent's CLI
// as scv located it: the pure computation from the row, then the turn's plan around it (where the
// CLI is found, that a user's env wins, that nothing is set without the CLI or outside ACP).

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acpCliEnvironment } from "../../../src/acp/turn/plan-acp-server.js";
import { adapter } from "../../../src/adapters.js";
import type { Config } from "../../../src/home/config.js";
import { planTurn } from "../../../src/turn/plan.js";

function launch(name: string) {
  const acp = adapter(name)?.acp;
  if (acp == null) throw new Error(`${name} has no ACP launch`);
  return acp;
}

describe("acpCliEnvironment", () => {
  it("names the located CLI in the adapter's variable", () => {
    expect(acpCliEnvironment(launch("codex"), "/opt/codex/bin/codex")).toEqual({
      CODEX_PATH: "/opt/codex/bin/codex",
    });
    expect(acpCliEnvironment(launch("claude"), "/u/.local/bin/claude")).toEqual({
      CLAUDE_CODE_EXECUTABLE: "/u/.local/bin/claude",
    });
    expect(acpCliEnvironment(launch("claude-ai"), "/c")).toEqual({ CLAUDE_CODE_EXECUTABLE: "/c" });
  });

  it("sets nothing when the CLI is not installed: the adapter runs the CLI it bundles", () => {
    expect(acpCliEnvironment(launch("codex"), undefined)).toEqual({});
    expect(acpCliEnvironment(launch("claude"), undefined)).toEqual({});
  });

  it("sets nothing for a CLI that serves ACP itself", () => {
    expect(acpCliEnvironment(launch("gemini"), "/usr/bin/gemini")).toEqual({});
    expect(acpCliEnvironment(launch("qwen"), "/usr/bin/qwen")).toEqual({});
  });
});

describe("an ACP turn's plan", () => {
  let root: string;
  let bin: string;
  const executable = (path: string) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
  };
  const plan = (config: Config, env: Record<string, string> = {}, transport: "acp" | "process" = "acp") =>
    planTurn(
      { agent: "codex", prompt: "hi", transport, record: false, env },
      {
        env: { PATH: bin, HOME: join(root, "home"), SCV_HOME: join(root, "scv-home") },
        cwd: root,
        config,
      },
    );

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "scv-plan-acp-"));
    bin = join(root, "bin");
    executable(join(bin, "codex-acp"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("points the adapter at the CLI found on PATH", () => {
    executable(join(bin, "codex"));
    const planned = plan({});
    expect(planned.executable).toBe(join(bin, "codex-acp"));
    expect(planned.extraEnv.CODEX_PATH).toBe(join(bin, "codex"));
  });

  it("prefers scv's own tools and the config's command, as a per-turn turn would", () => {
    executable(join(bin, "codex"));
    executable(join(root, "scv-home", "tools", "bin", "codex"));
    expect(plan({}).extraEnv.CODEX_PATH).toBe(join(root, "scv-home", "tools", "bin", "codex"));
    const mine = join(root, "mine", "codex-0.171");
    executable(mine);
    expect(plan({ agents: { codex: { command: mine } } }).extraEnv.CODEX_PATH).toBe(mine);
  });

  it("leaves it to the user's [agents.codex] env and --env", () => {
    executable(join(bin, "codex"));
    const config: Config = { agents: { codex: { env: { CODEX_PATH: "/from/config" } } } };
    expect(plan(config).extraEnv.CODEX_PATH).toBe("/from/config");
    expect(plan(config, { CODEX_PATH: "/from/flag" }).extraEnv.CODEX_PATH).toBe("/from/flag");
  });

  it("sets nothing when the CLI is not installed, nor for a per-turn process", () => {
    expect(plan({}).extraEnv).not.toHaveProperty("CODEX_PATH");
    executable(join(bin, "codex"));
    expect(plan({}, {}, "process").extraEnv).not.toHaveProperty("CODEX_PATH");
  });
});
