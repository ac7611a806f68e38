// Rendering a turn's MCP servers into each agent's own form (src/turn/mcp-servers.ts), read from the
// rows' `mcp`; and choosing them from `--mcp`, the agent's default and the config.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { ScvError } from "../../src/errors.js";
import { parseConfig } from "../../src/home/config.js";
import {
  acpMcpServers,
  chooseMcpServers,
  LAUNCH_SCRIPT,
  type NamedMcpServer,
  renderMcp,
  writeMcpFiles,
} from "../../src/turn/mcp-servers.js";

const DIR = "/tmp/scv-x-abcdef/scv-mcp";
const SECRET = "canary-secret-5f1e";

const docs: NamedMcpServer = {
  name: "docs",
  server: { command: "node", args: ["/srv/docs.js", "--port", "0"] },
};
const withSecret: NamedMcpServer = {
  name: "db",
  server: { command: "db-mcp", args: ["--ro"], env: { DB_TOKEN: SECRET, QUOTED: "it's" } },
};
const remote: NamedMcpServer = {
  name: "search",
  server: { url: "https://mcp.example.com/mcp", headers: { Authorization: `Bearer ${SECRET}` } },
};

function row(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(name);
  return found;
}

function json(text: string | undefined): unknown {
  return JSON.parse(text ?? "null");
}

describe("renderMcp", () => {
  it("gives Claude Code a --mcp-config file and --strict-mcp-config", () => {
    const rendered = renderMcp(row("claude").mcpPassing, [docs, remote], DIR);
    expect(rendered.args).toEqual(["--mcp-config", `${DIR}/mcp.json`, "--strict-mcp-config"]);
    expect(rendered.env).toEqual({});
    expect(rendered.files.map((file) => file.path)).toEqual([`${DIR}/mcp.json`]);
    expect(json(rendered.files[0]?.text)).toEqual({
      mcpServers: {
        docs: { command: "node", args: ["/srv/docs.js", "--port", "0"] },
        search: {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: `Bearer ${SECRET}` },
        },
      },
    });
  });

  it("keeps every other server from Claude Code when the turn has none", () => {
    expect(renderMcp(row("claude-ai").mcpPassing, [], DIR)).toEqual({
      args: ["--strict-mcp-config"],
      env: {},
      files: [],
    });
  });

  it("moves a stdio server's variables into a file of their own, sourced by /bin/sh", () => {
    const rendered = renderMcp(row("claude").mcpPassing, [withSecret], DIR);
    const envFile = `${DIR}/db.env`;
    expect(rendered.files.map((file) => file.path)).toEqual([envFile, `${DIR}/mcp.json`]);
    expect(rendered.files[0]?.text).toBe(`DB_TOKEN='${SECRET}'\nQUOTED='it'\\''s'\n`);
    const config = rendered.files[1]?.text ?? "";
    expect(config).not.toContain(SECRET);
    expect(json(config)).toEqual({
      mcpServers: { db: { command: "/bin/sh", args: ["-c", LAUNCH_SCRIPT, envFile, "db-mcp", "--ro"] } },
    });
    expect(rendered.args.join(" ")).not.toContain(SECRET);
  });

  it("the launch gives the server its variables, verbatim, and its arguments", () => {
    const dir = mkdtempSync(join(tmpdir(), "scv-mcp-test-"));
    try {
      const server: NamedMcpServer = {
        name: "probe",
        server: {
          command: process.execPath,
          args: [
            "-e",
            "process.stdout.write(JSON.stringify([process.env.A, process.env.B, process.argv[1]]))",
            "x y",
          ],
          env: { A: 'it\'s $HOME `id` "q"', B: "line1\nline2" },
        },
      };
      const rendered = renderMcp(row("claude").mcpPassing, [server], dir);
      writeMcpFiles(rendered);
      const launched = (
        json(rendered.files[1]?.text) as { mcpServers: Record<string, { command: string; args: string[] }> }
      ).mcpServers.probe;
      const out = execFileSync(launched?.command ?? "", launched?.args ?? [], {
        env: { PATH: process.env.PATH ?? "" },
      }).toString();
      expect(JSON.parse(out)).toEqual(['it\'s $HOME `id` "q"', "line1\nline2", "x y"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives Codex -c overrides of mcp_servers, no file, no secret", () => {
    const rendered = renderMcp(row("codex").mcpPassing, [docs, withSecret], DIR);
    expect(rendered.args).toEqual([
      "-c",
      'mcp_servers.docs.command="node"',
      "-c",
      'mcp_servers.docs.args=["/srv/docs.js","--port","0"]',
      "-c",
      'mcp_servers.db.command="/bin/sh"',
      "-c",
      `mcp_servers.db.args=["-c",${JSON.stringify(LAUNCH_SCRIPT)},"${DIR}/db.env","db-mcp","--ro"]`,
    ]);
    expect(rendered.files.map((file) => file.path)).toEqual([`${DIR}/db.env`]);
    expect(renderMcp(row("codex").mcpPassing, [], DIR)).toEqual({ args: [], env: {}, files: [] });
  });

  it("gives Copilot CLI --additional-mcp-config @file and no built-in servers", () => {
    const rendered = renderMcp(row("copilot").mcpPassing, [docs], DIR);
    expect(rendered.args).toEqual(["--additional-mcp-config", `@${DIR}/mcp.json`, "--disable-builtin-mcps"]);
    expect(json(rendered.files[0]?.text)).toEqual({
      mcpServers: {
        docs: { type: "local", command: "node", args: ["/srv/docs.js", "--port", "0"], tools: ["*"] },
      },
    });
    expect(renderMcp(row("copilot").mcpPassing, [], DIR).args).toEqual(["--disable-builtin-mcps"]);
  });

  it("renders nothing on Gemini CLI's and Qwen Code's command lines: their servers go over ACP", () => {
    expect(renderMcp(row("gemini").mcpPassing, [docs], DIR)).toEqual({ args: [], env: {}, files: [] });
    expect(renderMcp(row("qwen").mcpPassing, [docs], DIR)).toEqual({ args: [], env: {}, files: [] });
  });

  it("gives OpenCode a config named by OPENCODE_CONFIG", () => {
    const rendered = renderMcp(row("opencode").mcpPassing, [docs, remote], DIR);
    expect(rendered.env).toEqual({ OPENCODE_CONFIG: `${DIR}/settings.json` });
    expect(json(rendered.files[0]?.text)).toEqual({
      mcp: {
        docs: { type: "local", command: ["node", "/srv/docs.js", "--port", "0"], enabled: true },
        search: {
          type: "remote",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: `Bearer ${SECRET}` },
          enabled: true,
        },
      },
    });
  });

  it("renders nothing for a row without a way", () => {
    expect(renderMcp(row("pi").mcpPassing, [docs], DIR)).toEqual({ args: [], env: {}, files: [] });
  });
});

describe("acpMcpServers", () => {
  it("is session/new's list, variables and headers as name/value pairs", () => {
    expect(acpMcpServers([withSecret, remote])).toEqual([
      {
        name: "db",
        command: "db-mcp",
        args: ["--ro"],
        env: [
          { name: "DB_TOKEN", value: SECRET },
          { name: "QUOTED", value: "it's" },
        ],
      },
      {
        type: "http",
        name: "search",
        url: "https://mcp.example.com/mcp",
        headers: [{ name: "Authorization", value: `Bearer ${SECRET}` }],
      },
    ]);
  });
});

describe("chooseMcpServers", () => {
  const config = parseConfig(
    [
      "[mcp_servers.docs]",
      'command = "node"',
      'args = ["/srv/docs.js"]',
      "[mcp_servers.search]",
      'url = "https://mcp.example.com/mcp"',
      'headers = { Authorization = "Bearer x" }',
      "[agents.claude]",
      'mcp = ["docs"]',
    ].join("\n"),
    "config.toml",
  );

  it("takes --mcp over the agent's default, and none by default", () => {
    expect(chooseMcpServers(undefined, ["docs"], config, row("claude"), false).map((s) => s.name)).toEqual([
      "docs",
    ]);
    expect(
      chooseMcpServers(["search", "docs", "search"], ["docs"], config, row("claude"), false).map(
        (s) => s.name,
      ),
    ).toEqual(["search", "docs"]);
    expect(chooseMcpServers([], ["docs"], config, row("claude"), false)).toEqual([]);
    expect(chooseMcpServers(undefined, undefined, config, row("claude"), false)).toEqual([]);
  });

  it("refuses a name the config does not declare, naming those it does", () => {
    expect(() => chooseMcpServers(["nope"], undefined, config, row("claude"), false)).toThrow(
      "--mcp 'nope': no [mcp_servers.nope] in scv's config — known: docs, search",
    );
  });

  it("refuses servers for a CLI with no way to take them, unless over ACP", () => {
    const refusal = (() => {
      try {
        // Crush has no ACP server.
        chooseMcpServers(["docs"], undefined, config, row("crush"), false);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(ScvError);
    expect((refusal as ScvError).message).toBe(
      "Crush cannot be given MCP servers on its command line (not installable here; no way to pass MCP servers was verified) — drop --mcp (or its agent's mcp in the config)",
    );
    expect(() => chooseMcpServers(["docs"], undefined, config, row("gemini"), false)).toThrow(
      /^Gemini CLI cannot be given MCP servers on its command line \(.*\) — use --transport acp, or drop --mcp$/,
    );
    expect(chooseMcpServers(["docs"], undefined, config, row("gemini"), true)).toHaveLength(1);
    expect(chooseMcpServers(["docs"], undefined, config, row("kimi"), true)).toHaveLength(1);
  });

  it("refuses headers for Codex, which would show them on its command line", () => {
    expect(() => chooseMcpServers(["search"], undefined, config, row("codex"), false)).toThrow(
      /Codex takes an MCP server's headers only on its command line/,
    );
    expect(chooseMcpServers(["docs"], undefined, config, row("codex"), false)).toHaveLength(1);
  });
});
