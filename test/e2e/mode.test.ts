// Mode verification through the built scv: an agent whose own report contradicts --policy is
// stopped (its whole group) and the turn exits 1 saying which mode it reported and what to do.
// The fakes report what they were given, or $FAKE_AGENT_PERMISSION_MODE (a settings file in the
// agent home does that to the real CLIs).

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { turnResultShape } from "../../src/json-shapes.js";
import { useLab } from "../helpers/lab.js";
import { killAll, survivors } from "../helpers/pids.js";
import { agentCalls, agentPids, scv, signIn, startScv, type World } from "../helpers/scv.js";

let world: World;
let leftovers: number[] = [];
useLab((created) => {
  world = created;
});
afterEach(() => {
  killAll(leftovers);
  leftovers = [];
});

/** One `scv: …` line on stderr. */
function message(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.startsWith("scv: "));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? "";
}

describe("a mode that contradicts the policy stops the turn", () => {
  const agentHome = (agent: string) => join(world.scvHome, "agents", agent);
  const cases = [
    {
      agent: "claude",
      policy: "auto",
      reported: "default",
      line: (home: string) =>
        `scv: claude reported permission mode 'default' under --policy auto, not 'bypassPermissions'; scv stopped it — look for a setting that overrides it in ${home}/.claude/settings.json, or run with --policy default`,
    },
    {
      agent: "claude",
      policy: "default",
      reported: "bypassPermissions",
      line: (home: string) =>
        `scv: claude reported permission mode 'bypassPermissions' under --policy default; scv stopped it — remove the setting that grants it from ${home}/.claude/settings.json, or pass --policy auto if it may have full permissions`,
    },
    {
      agent: "codex",
      policy: "auto",
      reported: "read-only",
      line: (home: string) =>
        `scv: codex reported sandbox policy 'read-only' under --policy auto, not 'danger-full-access'; scv stopped it — look for a setting that overrides it in ${home}/config.toml, or run with --policy default`,
    },
    {
      agent: "codex",
      policy: "default",
      reported: "danger-full-access",
      line: (home: string) =>
        `scv: codex reported sandbox policy 'danger-full-access' under --policy default; scv stopped it — remove the setting that grants it from ${home}/config.toml, or pass --policy auto if it may have full permissions`,
    },
  ] as const;

  it.each(cases)(
    "$agent reporting '$reported' under --policy $policy",
    async ({ agent, policy, reported, line }) => {
      await signIn(world, agent);
      // The fake reports the mode and then hangs: only scv's check can end this turn (the test's
      // own limit is far above the few hundred milliseconds it takes).
      const running = startScv(world, ["delegate", agent, "--json", "--policy", policy, "hi"], {
        env: { FAKE_AGENT_MODE: "start-hang", FAKE_AGENT_PERMISSION_MODE: reported },
      });
      leftovers = await agentPids(world);
      const run = await running;
      expect(run.exitCode).toBe(1);
      expect(await survivors(leftovers)).toEqual([]);
      const result = turnResultShape().parse(JSON.parse(String(run.stdout)));
      expect(result).toMatchObject({ status: "failed", exitCode: 1, mode: reported, agent });
      expect(message(String(run.stderr))).toBe(line(agentHome(agent)));
    },
  );

  it.each([
    ["claude", "auto", "bypassPermissions"],
    ["claude", "default", "default"],
    ["codex", "auto", "danger-full-access"],
    ["codex", "default", "read-only"],
  ] as const)("%s under --policy %s runs and records mode '%s'", async (agent, policy, mode) => {
    await signIn(world, agent);
    const run = await scv(world, ["delegate", agent, "--json", "--policy", policy, "hi"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(turnResultShape().parse(JSON.parse(run.stdout))).toMatchObject({ status: "completed", mode });
  });

  it("a continued codex turn is judged by its own turn_context, not the first turn's", async () => {
    await signIn(world, "codex");
    const first = await scv(world, ["delegate", "codex", "--json", "--policy", "auto", "hi"]);
    const handle = turnResultShape().parse(JSON.parse(first.stdout)).conversation ?? "";
    const second = await scv(world, ["delegate", "-c", handle, "--json", "--policy", "default", "again"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(turnResultShape().parse(JSON.parse(second.stdout)).mode).toBe("read-only");
  });
});

describe("a codex config that grants full access is refused before codex starts", () => {
  // Codex writes its sandbox to the rollout file ~100 ms after it starts, when its first tool may
  // already run with full access (QA: a file created in 5 of 16 such turns), so its config.toml is
  // read first.
  const settings = () => join(world.scvHome, "agents", "codex", "config.toml");
  const refusal = () =>
    `scv: ${settings()} sets sandbox_mode = "danger-full-access", which --policy default refuses; codex was not started — remove that setting, or pass --policy auto if it may have full permissions`;

  it.each([
    ["at the top level", 'sandbox_mode = "danger-full-access"\n'],
    ["in the profile it selects", 'profile = "yolo"\n[profiles.yolo]\nsandbox_mode = "danger-full-access"\n'],
  ])("%s: exit 1, nothing run", async (_where, toml) => {
    await signIn(world, "codex");
    writeFileSync(settings(), toml);
    const run = await scv(world, ["delegate", "codex", "--policy", "default", "hi"]);
    expect(run.exitCode).toBe(1);
    expect(message(run.stderr)).toBe(refusal());
    expect(agentCalls(world)).toEqual([]);
  });

  it.each([
    ["under --policy auto", 'sandbox_mode = "danger-full-access"\n', "auto"],
    ["a profile that is not selected", '[profiles.yolo]\nsandbox_mode = "danger-full-access"\n', "default"],
    ["workspace-write", 'sandbox_mode = "workspace-write"\n', "default"],
    ["a file codex itself must judge", "sandbox_mode = = broken\n", "default"],
  ])("not %s", async (_what, toml, policy) => {
    await signIn(world, "codex");
    writeFileSync(settings(), toml);
    await scv(world, ["delegate", "codex", "--policy", policy, "hi"]);
    expect(agentCalls(world)).toHaveLength(1);
  });
});
