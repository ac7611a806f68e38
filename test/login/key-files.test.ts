// `scv agents login --with-api-key` into the files the lab's recipes use (gemini, qwen), their
// logout without the CLI, and the status of every agent.
// Through the built scv with fake CLIs first on PATH; every run is checked for canary secrets
// (test/helpers/login-world.ts).

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentFile,
  env,
  expectNoSecret,
  expectNoSecretInFiles,
  mode,
  root,
  scv,
  scvHome,
  useLoginWorld,
} from "../helpers/login-world.js";

useLoginWorld();

describe("gemini and qwen: --with-api-key into the files the lab's recipes use", () => {
  it("gemini: the key in .gemini/.env, API-key auth selected, the endpoint line kept", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    writeFileSync(agentFile("gemini", ".gemini/.env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    const run = scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n");
    expect(run.code).toBe(0);
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).toBe(
      "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\nGEMINI_API_KEY=CANARY-KEY-7f3a\n",
    );
    expect(mode(agentFile("gemini", ".gemini/.env"))).toBe(0o600);
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual({
      security: { auth: { selectedType: "gemini-api-key" } },
    });
    expectNoSecretInFiles("gemini", [".gemini/.env"]);
  });

  it("qwen: the key in the env block of its settings", () => {
    const run = scv(["agents", "login", "qwen", "--with-api-key"], "CANARY-KEY-7f3a");
    expect(run.code).toBe(0);
    const settings = agentFile("qwen", ".qwen/settings.json");
    expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({
      env: { OPENAI_API_KEY: "CANARY-KEY-7f3a" },
      security: { auth: { selectedType: "openai" } },
    });
    expect(mode(settings)).toBe(0o600);
  });

  it("status: an unchecked row whose key store holds the key scv wrote is signed in, by key", () => {
    const unchecked = (agent: string) => JSON.parse(scv(["agents", "status", agent, "--json"]).stdout);
    // Before: nothing scv can tell (and not installed here).
    expect(unchecked("gemini")).toMatchObject({ state: "unknown", source: "unchecked" });
    for (const [agent, file] of [
      ["gemini", ".gemini/.env"],
      ["qwen", ".qwen/settings.json"],
    ] as const) {
      expect(scv(["agents", "login", agent, "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
      const json = scv(["agents", "status", agent, "--json"]);
      expectNoSecret(json);
      expect(JSON.parse(json.stdout)).toMatchObject({
        state: "signed-in",
        source: "stored",
        detail: `signed in by key: API key in ${file}`,
      });
      const table = scv(["agents", "status"]);
      expectNoSecret(table);
      expect(table.stdout).toMatch(
        new RegExp(`^${agent}\\s+not installed\\s+-\\s+yes\\s+its key store\\s+signed in by key`, "m"),
      );
      // Removed again by logout: back to what scv cannot tell.
      expect(scv(["agents", "logout", agent]).code).toBe(0);
      expect(unchecked(agent)).toMatchObject({ state: "unknown", source: "unchecked" });
    }
  });
});

describe("gemini and qwen: logout removes the key scv stored, with no CLI and no terminal", () => {
  it("gemini: the key and its selection go, the endpoint stays; its own sign-in needs its own screen", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    writeFileSync(agentFile("gemini", ".gemini/.env"), "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n");
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "gemini"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      "scv: gemini: signed out; removed GEMINI_API_KEY in .gemini/.env, security.auth.selectedType in .gemini/settings.json\n",
    );
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).toBe(
      "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9\n",
    );
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual({});
    expect(scv(["agents", "logout", "gemini"]).stderr).toBe(
      "scv: gemini: nothing to remove — it was not signed in\n",
    );

    // A sign-in of the CLI's own (Login with Google) is the CLI's to remove, in its own screen.
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    writeFileSync(
      agentFile("gemini", ".gemini/oauth_creds.json"),
      '{"refresh_token":"CANARY-REFRESH-TOKEN"}',
    );
    const bin = join(root, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "gemini"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    env.PATH = `${bin}:${env.PATH}`;
    const own = scv(["agents", "logout", "gemini"]);
    expect(own.code).toBe(2);
    expect(own.stderr).toBe(
      "scv: gemini: removed GEMINI_API_KEY in .gemini/.env, security.auth.selectedType in .gemini/settings.json\n" +
        "scv: Gemini CLI's own sign-out (.gemini/oauth_creds.json remain) asks at a terminal, and there is none — run it in a terminal\n",
    );
    expect(readFileSync(agentFile("gemini", ".gemini/.env"), "utf8")).not.toContain("CANARY");
  });

  it("gemini: a sign-in choice the user wrote in that home stays, beside their other settings", () => {
    mkdirSync(join(scvHome, "agents", "gemini", ".gemini"), { recursive: true });
    const mine = { security: { auth: { selectedType: "gemini-api-key" } }, ui: { theme: "GitHub" } };
    writeFileSync(agentFile("gemini", ".gemini/settings.json"), JSON.stringify(mine));
    expect(scv(["agents", "login", "gemini", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "gemini"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe(
      "scv: gemini: signed out; removed GEMINI_API_KEY in .gemini/.env\n" +
        "scv: gemini: left security.auth.selectedType in .gemini/settings.json, which scv's sign-in did not set\n",
    );
    expect(JSON.parse(readFileSync(agentFile("gemini", ".gemini/settings.json"), "utf8"))).toEqual(mine);
  });

  it("qwen: the key leaves the env block, the endpoint stays", () => {
    mkdirSync(join(scvHome, "agents", "qwen", ".qwen"), { recursive: true });
    writeFileSync(
      agentFile("qwen", ".qwen/settings.json"),
      JSON.stringify({ env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } }),
    );
    expect(scv(["agents", "login", "qwen", "--with-api-key"], "CANARY-KEY-7f3a\n").code).toBe(0);
    const logout = scv(["agents", "logout", "qwen"]);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toBe("scv: qwen: signed out; removed OPENAI_API_KEY in .qwen/settings.json\n");
    expect(JSON.parse(readFileSync(agentFile("qwen", ".qwen/settings.json"), "utf8"))).toEqual({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
  });
});

describe("status of every agent", () => {
  it("one row per agent, each kind saying how scv knows", () => {
    const run = scv(["agents", "status", "--json"]);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as {
      agent: string;
      source: string;
      installed: boolean;
      detail: string;
    }[];
    expect(rows.map((row) => row.agent)).toContain("kimi");
    expect(new Set(rows.map((row) => row.source))).toEqual(new Set(["command", "stored", "unchecked"]));
    expect(rows.find((row) => row.agent === "amp")).toMatchObject({
      installed: false,
      detail: "not installed",
    });
    const table = scv(["agents", "status"]);
    expect(table.stdout.split("\n")[0]).toMatch(
      /^AGENT\s+INSTALLED\s+VERSION\s+SIGNED IN\s+HOW SCV KNOWS\s+DETAIL$/,
    );
  });
});
