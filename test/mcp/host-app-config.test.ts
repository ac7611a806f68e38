// Editing a host's own config files without disturbing the rest: one key in one TOML table (Codex's
// tool_timeout_sec), one member of a JSON-with-comments file (OpenCode's config).

import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import { hasJsonMember, readJsonc, setJsonMember, setTomlKey } from "../../src/mcp/host-app-config.js";

describe("setTomlKey", () => {
  const CODEX = `# my settings
model = "gpt-5.5"

[mcp_servers.other]
command = "other"

[mcp_servers.scv]
command = "/usr/local/bin/scv"
args = ["mcp"]

[mcp_servers.scv.env]
A = "1"

[profiles.fast]
model = "gpt-5.5-mini"
`;

  it("adds the key under the table's own header, before its sub-tables, and nothing else changes", () => {
    const edited = setTomlKey(CODEX, ["mcp_servers", "scv"], "tool_timeout_sec", 120, "config.toml");
    expect(edited).toBe(CODEX.replace("[mcp_servers.scv]\n", "[mcp_servers.scv]\ntool_timeout_sec = 120\n"));
    const read = parse(edited ?? "") as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(read.mcp_servers.scv).toEqual({
      tool_timeout_sec: 120,
      command: "/usr/local/bin/scv",
      args: ["mcp"],
      env: { A: "1" },
    });
    expect(read.mcp_servers.other).toEqual({ command: "other" });
  });

  it("replaces the key where the table has it already, and reads a quoted header", () => {
    const text = '[mcp_servers."scv"]\ncommand = "scv"\ntool_timeout_sec = 30 # too short\n';
    expect(setTomlKey(text, ["mcp_servers", "scv"], "tool_timeout_sec", 120, "c.toml")).toBe(
      '[mcp_servers."scv"]\ncommand = "scv"\ntool_timeout_sec = 120\n',
    );
  });

  it("says when there is no such table, and refuses an edit that would not read back", () => {
    expect(
      setTomlKey("[other]\n", ["mcp_servers", "scv"], "tool_timeout_sec", 120, "c.toml"),
    ).toBeUndefined();
    // The table's header appears twice (invalid already): the edit cannot be checked.
    expect(() =>
      setTomlKey(
        '[mcp_servers.scv]\na = 1\n[mcp_servers.scv]\nb = "',
        ["mcp_servers", "scv"],
        "tool_timeout_sec",
        1,
        "c.toml",
      ),
    ).toThrow(ScvError);
  });
});

describe("setJsonMember", () => {
  const OPENCODE = `{
  // my provider
  "$schema": "https://opencode.ai/config.json",
  "model": "mock/mock-model", // the one I use
  "mcp": {
    "other": { "type": "local", "command": ["other"] },
  },
}
`;

  it("sets a member, keeping comments, trailing commas and the rest", () => {
    const entry = { type: "local", command: ["/usr/local/bin/scv", "mcp"], enabled: true, timeout: 120000 };
    const edited = setJsonMember(OPENCODE, ["mcp", "scv"], entry, "opencode.jsonc");
    expect(edited).toContain("// my provider");
    expect(edited).toContain('"model": "mock/mock-model", // the one I use');
    expect(readJsonc(edited, "f")).toEqual({
      $schema: "https://opencode.ai/config.json",
      model: "mock/mock-model",
      mcp: { other: { type: "local", command: ["other"] }, scv: entry },
    });
    expect(hasJsonMember(edited, ["mcp", "scv"], "f")).toBe(true);
    const removed = setJsonMember(edited, ["mcp", "scv"], undefined, "opencode.jsonc");
    expect(hasJsonMember(removed, ["mcp", "scv"], "f")).toBe(false);
    expect(removed).toContain("// the one I use");
  });

  it("starts an empty file, and refuses a file that is not JSON", () => {
    expect(readJsonc(setJsonMember("", ["mcp", "scv"], { a: 1 }, "f"), "f")).toEqual({
      mcp: { scv: { a: 1 } },
    });
    expect(() => setJsonMember('{"mcp": ', ["mcp", "scv"], {}, "opencode.json")).toThrow(
      /^opencode\.json is not valid JSON \(.*\) — fix it first$/,
    );
    expect(() => setJsonMember("[1]", ["mcp", "scv"], {}, "opencode.json")).toThrow(
      /does not hold a JSON object/,
    );
  });
});
