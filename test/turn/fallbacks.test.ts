// Which agents a failure offers instead: installed, signed in where a key store can tell (first),
// "maybe" where only the CLI itself could (after), never the failed agent or one scv cannot run.

import { describe, expect, it } from "vitest";
import { signInFailedRecently } from "../../src/home/sign-in-failures.js";
import { fallbackAgents, noteSignIn, wantsFallbacks } from "../../src/turn/fallbacks.js";
import { installFakeAgents } from "../fake-agents/install.js";
import { useLab } from "../helpers/lab.js";
import { signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

describe("fallbackAgents", () => {
  it("checked sign-ins first, then the CLIs whose sign-in scv cannot read, in table order", async () => {
    await signIn(world, "pi");
    await signIn(world, "claude");
    expect(await fallbackAgents("codex", {}, world.env)).toEqual([
      "claude",
      "pi",
      "gemini",
      "qwen",
      "opencode",
      "copilot",
      "cursor",
      "amp",
      "cline",
      "kilo",
      "droid",
      "auggie",
      "qoder",
      "crush",
    ]);
  });

  it("only what is installed: the config's command counts, a bare PATH does not", async () => {
    const only = `${world.root}/only`;
    installFakeAgents(only, ["pi", "codex"]);
    await signIn(world, "pi");
    const env = { ...world.env, PATH: only };
    expect(await fallbackAgents("gemini", {}, env)).toEqual(["pi"]);
    expect(await fallbackAgents("gemini", {}, { ...env, PATH: "/nonexistent" })).toEqual([]);
    const config = { agents: { amp: { command: `${world.bin}/amp` } } };
    expect(await fallbackAgents("gemini", config, { ...env, PATH: "/nonexistent" })).toEqual(["amp"]);
  });

  it("a CLI whose preflight store says signed out is not offered; present, it is a maybe", async () => {
    const only = `${world.root}/only`;
    installFakeAgents(only, ["pi", "codex"]);
    await signIn(world, "pi");
    const env = { ...world.env, PATH: only };
    // codex's sign-in is told by `codex login status`; its auth.json missing already says "no".
    expect(await fallbackAgents("gemini", {}, env)).toEqual(["pi"]);
    await signIn(world, "codex");
    expect(await fallbackAgents("gemini", {}, env)).toEqual(["pi", "codex"]);
  });

  it("judges an agent by the accounts its plain turn would try, each by its own mark", async () => {
    const only = `${world.root}/only`;
    installFakeAgents(only, ["pi", "codex"]);
    const env = { ...world.env, PATH: only };
    await signIn(world, "pi");
    // Only codex@work is signed in; a plain codex turn goes there when the config says so.
    await signIn(world, "codex", "work");
    const config = { agents: { codex: { accounts: ["work"] } } };
    expect(await fallbackAgents("gemini", {}, env)).toEqual(["pi"]);
    expect(await fallbackAgents("gemini", config, env)).toEqual(["pi", "codex"]);
    // codex@work just refused its sign-in: the default account's mark is not it, and stays clear.
    noteSignIn("codex", "work", 4, env);
    expect(await fallbackAgents("gemini", config, env)).toEqual(["pi"]);
    expect(signInFailedRecently("codex", "default", env)).toBe(false);
    // The default account answering clears its own mark only.
    noteSignIn("codex", "default", 0, env);
    expect(await fallbackAgents("gemini", config, env)).toEqual(["pi"]);
    noteSignIn("codex", "work", 0, env);
    expect(await fallbackAgents("gemini", config, env)).toEqual(["pi", "codex"]);
  });

  it("is wanted after an agent's failure, not after success, a usage error or an interruption", () => {
    expect([1, 3, 4, 5, 124].map(wantsFallbacks)).toEqual([true, true, true, true, true]);
    expect([0, 2, 130, 143].map(wantsFallbacks)).toEqual([false, false, false, false]);
  });
});
