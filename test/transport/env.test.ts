import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { agentEnvironment } from "../../src/transport/env.js";
import { canaryVariables, KEPT } from "../helpers/canaries.js";

const HOME = "/scv/agents/x";

describe("agentEnvironment", () => {
  const canaries = canaryVariables();
  const parent = { ...canaries, ...KEPT, PATH: "/usr/bin:/bin", TMPDIR: "/tmp/t", HOME: "/home/user" };

  it("has at least 60 canaries to test with", () => {
    expect(Object.keys(canaries).length).toBeGreaterThanOrEqual(60);
  });

  for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
    it(`${entry.name}: no canary reaches it; PATH, locale, proxies and near-misses do`, () => {
      for (const policy of ["default", "auto"] as const) {
        const env = agentEnvironment({ parent, entry, home: HOME, policy });
        const leaked = Object.entries(env).filter(([, value]) => value.includes("canary-value-of-"));
        expect(leaked).toEqual([]);
        expect(env).toMatchObject({ ...KEPT, PATH: "/usr/bin:/bin", TMPDIR: "/tmp/t" });
        // HOME and the XDG folders are the agent's own, never the user's.
        expect(env.HOME).toBe(HOME);
        expect(env.XDG_CONFIG_HOME).toBe(`${HOME}/.config`);
        expect(env.XDG_DATA_HOME).toBe(`${HOME}/.local/share`);
        expect(env.XDG_CACHE_HOME).toBe(`${HOME}/.cache`);
        expect(env.XDG_STATE_HOME).toBe(`${HOME}/.local/state`);
        for (const [name, dir] of entry.homeEnvironment)
          expect(env[name]).toBe(dir === "" ? HOME : `${HOME}/${dir}`);
        for (const [name, value] of entry.fixedEnvironment) expect(env[name]).toBe(value);
        for (const [name, value] of entry.fullPermissionEnvironment ?? []) {
          expect(env[name]).toBe(policy === "auto" ? value : undefined);
        }
      }
    });
  }

  it("sets the config's extra variables last, on purpose", () => {
    const entry = ADAPTERS.find((candidate) => candidate.name === "claude") as AdapterDescriptor;
    const env = agentEnvironment({
      parent,
      entry,
      home: HOME,
      policy: "default",
      extra: { IS_SANDBOX: "1" },
    });
    expect(env.IS_SANDBOX).toBe("1");
  });
});
