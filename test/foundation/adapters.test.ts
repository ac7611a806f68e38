import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ADAPTERS,
  type AdapterDescriptor,
  adapter,
  adapterSearchDirs,
  type KeyStore,
  resolveAgentExecutable,
  summarizeStatus,
  unreachable,
} from "../../src/adapters.js";

const entries: readonly AdapterDescriptor[] = ADAPTERS;

function placeholders(args: readonly string[]): string[] {
  return args.flatMap((arg) => [...arg.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ""));
}

/** The files of a key store that hold a secret (a settings file that only selects a mode does not). */
function secretFiles(store: KeyStore): string[] {
  switch (store.kind) {
    case "claude-api-key":
      return [store.key, store.credentials];
    case "claude-account":
      return [store.credentials];
    case "codex-auth":
      return [store.auth];
    case "gemini-env":
      return [store.env];
    case "qwen-settings":
      return [store.settings];
    case "grok":
      return [store.auth, store.config];
    case "dsh-refs":
      return [store.path];
    case "pi":
      return [`${store.dir}/auth.json`];
    default:
      return unreachable(store);
  }
}

describe("the adapter table", () => {
  it("has the thirteen agents the project supports, each once", () => {
    expect(entries.map((entry) => entry.name)).toEqual([
      "claude",
      "claude-ai",
      "codex",
      "grok",
      "dsh",
      "pi",
      "gemini",
      "qwen",
      "opencode",
      "copilot",
      "cursor",
      "amp",
      "kimi",
    ]);
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(entries.length);
    expect(entries.some((entry) => entry.name === "scv")).toBe(false);
  });

  it("uses names that are safe as folder names and CLI tokens", () => {
    for (const entry of entries) expect(entry.name).toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    "%s puts {model}/{effort} exactly where their grammar needs them",
    (_name, entry) => {
      expect(entry.modelArgs.length === 0 || placeholders(entry.modelArgs).includes("model")).toBe(true);
      expect(placeholders(entry.modelArgs).every((name) => name === "model")).toBe(true);
      expect(entry.effortArgs.length === 0 || placeholders(entry.effortArgs).includes("effort")).toBe(true);
      expect(placeholders(entry.effortArgs).every((name) => name === "effort")).toBe(true);
      // Effort levels exist exactly when the CLI takes an effort.
      expect(entry.effortLevels.length > 0).toBe(entry.effortArgs.length > 0);
      for (const args of [entry.args, entry.headlessArgs, entry.fullPermissionArgs, entry.output.args]) {
        expect(placeholders(args)).toEqual([]);
      }
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    "%s has a resume grammar with {session} where it continues",
    (_name, entry) => {
      const resume = entry.resume;
      if (resume.kind === "unsupported") return;
      const continuing = [...resume.options, ...resume.positional];
      expect(placeholders(continuing)).toContain("session");
      expect(placeholders(resume.subcommand)).toEqual([]);
      // `start` is empty exactly when the CLI picks its own id; otherwise it names the one scv chose.
      if (resume.start.length > 0) {
        expect(placeholders(resume.start)).toEqual(["session"]);
        expect(resume.idPattern.test("3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10")).toBe(true);
      }
      expect(resume.idPattern.test("--dangerously-bypass-approvals-and-sandbox")).toBe(false);
      expect(resume.idPattern.test("a b")).toBe(false);
      expect(resume.idPattern.test("")).toBe(false);
    },
  );

  it("lets scv choose the id for the CLIs that accept --session-id, and reads it from the others", () => {
    const chooses = entries
      .filter((entry) => entry.resume.kind === "supported" && entry.resume.start.length > 0)
      .map((entry) => entry.name);
    expect(chooses).toEqual(["claude", "claude-ai", "gemini", "qwen", "copilot"]);
  });

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    "%s keeps its login, status and logout key stores among its credential files",
    (_name, entry) => {
      const stores: KeyStore[] = [];
      if (entry.login.kind === "api-key") stores.push(entry.login.store);
      if ((entry.login.kind === "command" || entry.login.kind === "interactive") && entry.login.apiKey) {
        stores.push(entry.login.apiKey);
      }
      if (entry.status.kind === "stored") stores.push(entry.status.store);
      if (entry.logout.kind === "stored") stores.push(entry.logout.store);
      for (const store of stores) {
        for (const file of secretFiles(store)) expect(entry.credentialFiles).toContain(file);
      }
      // One agent, one key store: login, status and logout agree on it.
      expect(new Set(stores.map((store) => JSON.stringify(store))).size).toBeLessThanOrEqual(1);
    },
  );

  it("keeps paths inside the agent home relative and tidy", () => {
    for (const entry of entries) {
      const paths = [
        ...entry.credentialFiles,
        ...entry.homeEnvironment.map(([, dir]) => dir).filter((dir) => dir !== ""),
        ...(entry.conversationFiles ? [entry.conversationFiles.dir] : []),
      ];
      for (const path of paths) {
        expect(path.startsWith("/")).toBe(false);
        expect(path.split("/")).not.toContain("..");
      }
    }
  });

  it("offers the ACP {full} slot only with full args to put there", () => {
    for (const entry of entries) {
      if (entry.acp === null) continue;
      const hasSlot = entry.acp.args.includes("{full}");
      expect(hasSlot || entry.acp.fullArgs.length === 0).toBe(true);
    }
  });

  it("marks the CLIs that are not on npm unverified, and gives every other an npm package", () => {
    for (const entry of entries) {
      if (entry.verified.kind === "unverified") expect(entry.packages).toEqual([]);
      else expect(entry.packages.length).toBeGreaterThan(0);
    }
    expect(adapter("amp")?.packages).toEqual(["@sourcegraph/amp"]);
    expect(adapter("codex")?.packages).toEqual(["@openai/codex"]);
  });

  it("reflects what today's CLIs do where they left the seed behind", () => {
    const pi = adapter("pi");
    expect(pi?.resume).toMatchObject({ kind: "supported", start: [], options: ["--session", "{session}"] });
    expect(adapter("gemini")?.headlessArgs).toContain("--skip-trust");
    expect(adapter("gemini")?.acp?.args).toContain("--acp");
    expect(adapter("qwen")?.acp?.args).toContain("--acp");
    expect(adapter("codex")?.headlessArgs).toContain("--skip-git-repo-check");
    expect(adapter("copilot")?.logout.kind).toBe("interactive");
    expect(adapter("opencode")?.output.kind).toBe("opencode-json");
    expect(adapter("opencode")?.resume).toMatchObject({ options: ["-s", "{session}"] });
  });

  it("looks agents up by name", () => {
    expect(adapter("codex")?.command).toBe("codex");
    expect(adapter("codx")).toBeUndefined();
    expect(adapter("")).toBeUndefined();
  });
});

describe("summarizeStatus", () => {
  it("condenses codex's text without echoing it", () => {
    const raw = "API key configured - sk-mock-***y-key\nAuthentication is checked when you send a request.";
    expect(summarizeStatus("codex-text", true, raw)).toBe("signed in (API key)");
    expect(summarizeStatus("codex-text", false, "Not logged in")).toBe("not signed in");
    expect(summarizeStatus("codex-text", true, "Logged in using ChatGPT")).toBe(
      "signed in (ChatGPT account)",
    );
  });

  it("reads claude's JSON status", () => {
    const helper = JSON.stringify({ loggedIn: true, authMethod: "api_key_helper", email: "a@b.c" });
    expect(summarizeStatus("claude-json", true, helper)).toBe("signed in (API key)");
    expect(summarizeStatus("claude-json", false, JSON.stringify({ loggedIn: false }))).toBe("not signed in");
    expect(summarizeStatus("claude-json", true, "not json")).toBe("not signed in");
  });

  it("falls back to the exit status", () => {
    expect(summarizeStatus("exit-status", true, "user@example.com")).toBe("signed in");
    expect(summarizeStatus("exit-status", false, "")).toBe("not signed in");
  });
});

describe("executable resolution", () => {
  function executable(dir: string, name: string): string {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
    return path;
  }

  it("prefers the adapter's search dirs over PATH", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const inSearch = executable(join(root, "home/.local/bin"), "codex");
    const onPath = executable(join(root, "usr/bin"), "codex");
    const codex = adapter("codex") as AdapterDescriptor;
    const dirs = adapterSearchDirs(codex, join(root, "home"));
    expect(resolveAgentExecutable("codex", dirs, join(root, "usr/bin"))).toBe(inSearch);
    expect(resolveAgentExecutable("codex", [], join(root, "usr/bin"))).toBe(onPath);
  });

  it("puts scv's own tool prefix first", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const tools = executable(join(root, "scv/tools/bin"), "pi");
    executable(join(root, "home/.local/bin"), "pi");
    const pi = adapter("pi") as AdapterDescriptor;
    const dirs = adapterSearchDirs(pi, join(root, "home"), join(root, "scv/tools/bin"));
    expect(resolveAgentExecutable("pi", dirs, "")).toBe(tools);
  });

  it("uses a command containing / as given", () => {
    const root = mkdtempSync(join(tmpdir(), "scv-resolve-"));
    const custom = executable(join(root, "opt"), "my-claude");
    executable(join(root, "home/.local/bin"), "my-claude");
    expect(resolveAgentExecutable(custom, [join(root, "home/.local/bin")], "")).toBe(custom);
    expect(resolveAgentExecutable(join(root, "missing/claude"), [], "")).toBeUndefined();
  });

  it("finds nothing when the CLI is nowhere", () => {
    expect(resolveAgentExecutable("surely-not-an-agent-cli", [], "/nonexistent")).toBeUndefined();
  });
});
