// What a failed sign-in says to do, end to end with the fake CLIs replaying real captures: Copilot
// CLI pointed at the user's own provider through scv's config is told to check that key, not sent
// to a GitHub sign-in; `agents check` never answers a failure with "run agents check"; and "try
// instead" leaves out an agent that has just failed to sign in.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

function config(text: string): void {
  mkdirSync(world.scvHome, { recursive: true });
  writeFileSync(join(world.scvHome, "config.toml"), text);
}

/** The `scv: …` lines of stderr. */
function said(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("scv: ") || line.startsWith("try instead"));
}

describe("copilot with the user's own provider (bring your own key)", () => {
  it("a 401 says to check the key given in scv's config, not to sign in to GitHub", async () => {
    config(
      '[agents.copilot.env]\nCOPILOT_PROVIDER_BASE_URL = "http://127.0.0.1:9/v1"\nCOPILOT_PROVIDER_API_KEY = "sk-wrong"\n',
    );
    const run = await scv(world, ["delegate", "copilot", "hi", "--json"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode).toBe(4);
    const result = JSON.parse(run.stdout) as { hint: string };
    expect(result.hint).toBe(
      "check COPILOT_PROVIDER_API_KEY in [agents.copilot.env] of scv's config (or --env): with COPILOT_PROVIDER_BASE_URL set there, it is the key copilot signs in with",
    );
    expect(run.stdout).not.toContain("sk-wrong");
  });

  it("without an endpoint of its own, a 401 is its own sign-in's", async () => {
    const run = await scv(world, ["delegate", "copilot", "hi", "--json"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode).toBe(4);
    expect((JSON.parse(run.stdout) as { hint: string }).hint).toBe("run: scv agents login copilot");
  });

  it("agents check without a model says the model is missing, and never to run agents check", async () => {
    const run = await scv(world, ["agents", "check", "copilot"], {
      env: { FAKE_AGENT_MODE: "fixture:byok-no-model" },
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain("BYOK providers require an explicit model");
    expect(run.stdout).toContain("[agents.copilot] model in scv's config");
    expect(run.stdout).not.toContain("scv agents check copilot");
  });
});

describe("try instead", () => {
  it("leaves out an agent that has just failed to sign in, until it signs in or completes a turn", async () => {
    await signIn(world, "claude");
    await signIn(world, "pi");
    const refused = await scv(world, ["delegate", "claude", "hi"], {
      env: { FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(refused.exitCode).toBe(4);
    const offered = async () => {
      const run = await scv(world, ["delegate", "gemini", "hi", "--json"], {
        env: { FAKE_AGENT_MODE: "exit:1" },
      });
      expect(run.exitCode).toBe(1);
      return (JSON.parse(run.stdout) as { fallbacks: string[] }).fallbacks;
    };
    // claude's key store says signed in, but its key was just refused.
    expect(await offered()).not.toContain("claude");
    expect((await offered())[0]).toBe("pi");
    const line = said(
      (await scv(world, ["delegate", "gemini", "hi"], { env: { FAKE_AGENT_MODE: "exit:1" } })).stderr,
    );
    expect(line.find((each) => each.startsWith("try instead"))).not.toContain("claude");
    // A completed turn of it counts again.
    expect((await scv(world, ["delegate", "claude", "hi"])).exitCode).toBe(0);
    expect((await offered())[0]).toBe("claude");
  });
});
