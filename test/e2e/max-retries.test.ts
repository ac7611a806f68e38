// `[agents.<name>] max_retries`: set as the CLI's own variable where its row has one (Claude Code's
// CLAUDE_CODE_MAX_RETRIES), refused with where to set it where the CLI reads it only from its own
// config (Codex's config.toml), or refused where the CLI has no setting at all (OpenCode).

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { onlyCall, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

function config(text: string): string {
  mkdirSync(world.scvHome, { recursive: true });
  const path = join(world.scvHome, "config.toml");
  writeFileSync(path, text);
  return path;
}

describe("[agents.<name>] max_retries", () => {
  it("claude: the agent gets CLAUDE_CODE_MAX_RETRIES", async () => {
    config("[agents.claude]\nmax_retries = 2\n");
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(onlyCall(world).env.CLAUDE_CODE_MAX_RETRIES).toBe("2");
  });

  it("claude: the same variable in [agents.claude.env] is the user's word", async () => {
    config('[agents.claude]\nmax_retries = 2\n[agents.claude.env]\nCLAUDE_CODE_MAX_RETRIES = "7"\n');
    await signIn(world, "claude");
    const run = await scv(world, ["delegate", "claude", "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(onlyCall(world).env.CLAUDE_CODE_MAX_RETRIES).toBe("7");
  });

  it("codex: refused before it runs, naming its own config.toml and the setting", async () => {
    const path = config("[agents.codex]\nmax_retries = 2\n");
    await signIn(world, "codex");
    const run = await scv(world, ["delegate", "codex", "hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe(
      `scv: ${path}: agents.codex.max_retries: codex reads its retry limit only from its own config — set model_providers.<id>.request_max_retries and stream_max_retries in config.toml of its agent home ($SCV_HOME/agents/codex); or remove it`,
    );
  });

  it("opencode: refused, as it has no retry setting", async () => {
    config("[agents.opencode]\nmax_retries = 2\n");
    const run = await scv(world, ["delegate", "opencode", "hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/agents\.opencode\.max_retries: opencode has no retry setting \(none: /);
  });

  it("a bound that is no whole number is a config error", async () => {
    config("[agents.claude]\nmax_retries = -1\n");
    const run = await scv(world, ["delegate", "claude", "hi"]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/agents\.claude\.max_retries/);
  });
});
