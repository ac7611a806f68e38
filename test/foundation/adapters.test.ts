import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor, adapter, type KeyStore, unreachable } from "../../src/adapters.js";

const entries: readonly AdapterDescriptor[] = ADAPTERS;

function placeholders(args: readonly string[]): string[] {
  return args.flatMap((arg) => [...arg.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ""));
}

/** The files of a key store that hold a secret (a settings file that only selects a mode does not). */
function secretFiles(store: KeyStore): string[] {
  switch (store.kind) {
    case "key-helper":
      return [store.key, ...(store.other === undefined ? [] : [store.other.file])];
    case "oauth-file":
      return [store.file];
    case "auth-json":
      return [store.file];
    case "selected-key":
      return [store.dotenv ?? store.settings];
    case "json-entries":
      return [store.file, ...(store.tomlKey === undefined ? [] : [store.tomlKey.file])];
    case "yaml-entry":
      return [store.file];
    case "provider-keys":
      return [store.auth];
    default:
      return unreachable(store);
  }
}

describe("the adapter table", () => {
  it("has the nineteen agents the project supports, each once", () => {
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
      "cline",
      "kilo",
      "droid",
      "auggie",
      "qoder",
      "crush",
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
      for (const args of [
        entry.args,
        entry.headlessArgs ?? [],
        entry.fullPermissionArgs,
        entry.output.args,
      ]) {
        expect(placeholders(args)).toEqual([]);
      }
    },
  );

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    "%s has a resume grammar with {session} where it continues",
    (_name, entry) => {
      const resume = entry.resume;
      if (resume.kind === "unsupported") return;
      const continuing = [...resume.options, ...(resume.positional ?? [])];
      expect(placeholders(continuing)).toContain("session");
      expect(placeholders(resume.subcommand ?? [])).toEqual([]);
      // `start` is absent exactly when the CLI picks its own id; otherwise it names the one scv chose.
      if (resume.start !== undefined) {
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
      .filter((entry) => entry.resume.kind === "supported" && entry.resume.start !== undefined)
      .map((entry) => entry.name);
    expect(chooses).toEqual(["claude", "claude-ai", "gemini", "qwen", "copilot", "qoder"]);
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

  it("offers the ACP {full} slot exactly where full permission is launch arguments", () => {
    for (const entry of entries) {
      if (entry.acp === null) continue;
      expect(entry.acp.args.includes("{full}")).toBe(entry.acp.full.kind === "args");
    }
  });

  it("gives every row a transport it has: per-turn process, ACP or both", () => {
    for (const entry of entries) {
      expect(entry.cliTurns || entry.acp !== null).toBe(true);
      if (entry.transport === "acp") expect(entry.acp).not.toBeNull();
      else expect(entry.cliTurns).toBe(true);
      // A row without a per-turn mode runs over ACP unless told otherwise.
      if (!entry.cliTurns) expect(entry.transport).toBe("acp");
    }
    const acpOnly = entries.filter((entry) => !entry.cliTurns).map((entry) => entry.name);
    expect(acpOnly).toEqual(["kimi"]);
    const byDefault = entries.filter((entry) => entry.transport === "acp").map((entry) => entry.name);
    expect(byDefault.sort()).toEqual(["dsh", "grok", "kimi"]);
    const none = entries.filter((entry) => entry.acp === null).map((entry) => entry.name);
    expect(none.sort()).toEqual(["amp", "crush"]);
  });

  it("installs an ACP adapter only where the CLI has no server of its own", () => {
    for (const entry of entries) {
      if (entry.acp?.package === undefined) continue;
      expect(entry.acp.command).not.toBe(entry.command);
    }
    expect(adapter("claude")?.acp?.package).toBe("@agentclientprotocol/claude-agent-acp");
    expect(adapter("codex")?.acp?.package).toBe("@agentclientprotocol/codex-acp");
    // pi-acp needs pi 0.81 or later: the row verifies 1.6.0, pinned beside it (scripts/real-clis.json).
    expect(adapter("pi")?.acp?.package).toBe("pi-acp");
    expect(adapter("pi")?.acp?.cliPathVariable).toBe("PI_ACP_PI_COMMAND");
  });

  it("marks the CLIs that are not on npm (or not installable here) unverified, and gives every other an npm package", () => {
    for (const entry of entries) {
      if (entry.verified.kind !== "unverified") expect(entry.packages.length).toBeGreaterThan(0);
      // One on npm unverified says why its package cannot be installed here (Crush's fetches its binary
      // from GitHub at install).
      else if (entry.packages.length > 0) expect(entry.verified.reason).toMatch(/at install/);
    }
    expect(adapter("crush")?.verified.kind).toBe("unverified");
    expect(adapter("amp")?.packages).toEqual(["@sourcegraph/amp"]);
    expect(adapter("codex")?.packages).toEqual(["@openai/codex"]);
  });

  it("looks agents up by name", () => {
    expect(adapter("codex")?.command).toBe("codex");
    expect(adapter("codx")).toBeUndefined();
    expect(adapter("")).toBeUndefined();
  });
});
