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

  for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
    it(`${entry.name}: under strict isolation only the allow-list passes, and scv's own variables come back`, () => {
      const env = agentEnvironment({
        parent: { ...parent, EDITOR: "vi", NPM_TOKEN: "npm-canary" },
        entry,
        home: HOME,
        policy: "auto",
        extra: { FROM_CONFIG: "1" },
        isolation: { strict: true, keep: ["NPM_TOKEN"] },
      });
      const set = new Set([
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
        "XDG_STATE_HOME",
        "FROM_CONFIG",
        ...entry.homeEnvironment.map(([name]) => name),
        ...entry.fixedEnvironment.map(([name]) => name),
        ...(entry.fullPermissionEnvironment ?? []).map(([name]) => name),
      ]);
      const inherited = Object.keys(env)
        .filter((name) => !set.has(name))
        .sort();
      expect(inherited).toEqual(
        [
          "COLORTERM",
          "HTTPS_PROXY",
          "HTTP_PROXY",
          "LANG",
          "LC_ALL",
          "NODE_EXTRA_CA_CERTS",
          "NO_PROXY",
          "NPM_TOKEN",
          "PATH",
          "SSL_CERT_FILE",
          "TERM",
          "TZ",
          "https_proxy",
          "no_proxy",
        ].sort(),
      );
      for (const [name, value] of entry.fixedEnvironment) expect(env[name]).toBe(value);
      for (const [name, value] of entry.fullPermissionEnvironment ?? []) expect(env[name]).toBe(value);
      expect(env.HOME).toBe(HOME);
    });
  }

  it("removes the config's extra variables and passes its kept ones", () => {
    const entry = ADAPTERS.find((candidate) => candidate.name === "codex") as AdapterDescriptor;
    const env = agentEnvironment({
      parent: { ...parent, NPM_TOKEN: "npm", CORP_SECRET_A: "a", GH_TOKEN: "gh" },
      entry,
      home: HOME,
      policy: "default",
      isolation: { remove: ["NPM_TOKEN", "CORP_*"], keep: ["GH_TOKEN"] },
    });
    expect(env.NPM_TOKEN).toBeUndefined();
    expect(env.CORP_SECRET_A).toBeUndefined();
    expect(env.GH_TOKEN).toBe("gh");
    expect(env.DATABASE_URL).toBe(KEPT.DATABASE_URL);
  });
});
