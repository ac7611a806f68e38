// `[mcp_servers.<name>]` and an agent's `mcp` in scv's config: checked whole, a wrong one named by
// file and key.

import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/home/config.js";

function refusal(text: string): string {
  try {
    parseConfig(text, "/cfg/config.toml");
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("[mcp_servers]", () => {
  it("takes stdio and http servers and an agent's default", () => {
    const config = parseConfig(
      [
        "[mcp_servers.docs]",
        'command = "node"',
        'args = ["server.js"]',
        'env = { DOCS_TOKEN = "t" }',
        "[mcp_servers.web-search]",
        'url = "http://127.0.0.1:9/mcp"',
        'headers = { Authorization = "Bearer t" }',
        "[agents.codex]",
        'mcp = ["docs"]',
      ].join("\n"),
      "config.toml",
    );
    expect(config.mcp_servers?.docs).toEqual({
      command: "node",
      args: ["server.js"],
      env: { DOCS_TOKEN: "t" },
    });
    expect(config.mcp_servers?.["web-search"]).toEqual({
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer t" },
    });
    expect(config.agents?.codex?.mcp).toEqual(["docs"]);
  });

  it("refuses a server with neither command nor url, or both", () => {
    expect(refusal('[mcp_servers.docs]\nargs = ["x"]')).toBe(
      "/cfg/config.toml: mcp_servers.docs.command: expected a string, got nothing",
    );
    expect(refusal('[mcp_servers.docs]\ncommand = "x"\nurl = "http://h"')).toBe(
      "/cfg/config.toml: mcp_servers.docs: expected command (with args, env) for a server scv's agent starts, or url (with headers) for one it reaches",
    );
  });

  it("refuses a URL that is not http(s), a bad variable name, a bad server name", () => {
    expect(refusal('[mcp_servers.docs]\nurl = "file:///etc/passwd"')).toBe(
      "/cfg/config.toml: mcp_servers.docs.url: expected an http:// or https:// URL",
    );
    expect(refusal('[mcp_servers.docs]\ncommand = "x"\nenv = { "1BAD" = "v" }')).toMatch(
      /^\/cfg\/config.toml: mcp_servers.docs.env.1BAD: invalid key: expected a variable name/,
    );
    expect(refusal('[mcp_servers."a b"]\ncommand = "x"')).toMatch(
      /^\/cfg\/config.toml: mcp_servers.a b: invalid key: expected a server name/,
    );
  });

  it("refuses an agent's mcp naming a server the file does not declare", () => {
    expect(refusal('[mcp_servers.docs]\ncommand = "x"\n[agents.claude]\nmcp = ["docs", "nope"]')).toBe(
      "/cfg/config.toml: agents.claude.mcp: no [mcp_servers.nope] in this file (declared: docs) — add it, or remove the name",
    );
    expect(refusal('[agents.gemini]\nmcp = ["docs"]')).toContain("(none is declared)");
  });
});

describe("[mcp_servers] with an agent the config defines", () => {
  it("gives its turns the servers it names, while its row says it can take none", () => {
    const config = parseConfig(
      ["[mcp_servers.docs]", 'command = "node"', "[agents.acme]", 'command = "acme"', 'mcp = ["docs"]'].join(
        "\n",
      ),
      "config.toml",
    );
    expect(config.agents?.acme?.mcp).toEqual(["docs"]);
    expect(config.agentRows?.find((row) => row.name === "acme")?.mcpPassing.kind).toBe("unsupported");
  });

  it("refuses a server name it does not declare", () => {
    expect(refusal(["[agents.acme]", 'command = "acme"', 'mcp = ["nope"]'].join("\n"))).toBe(
      "/cfg/config.toml: agents.acme.mcp: no [mcp_servers.nope] in this file (none is declared) — add it, or remove the name",
    );
  });
});
