// A turn's MCP files on disk (src/turn/mcp-turn.ts): written 0600 in a 0700 folder of the turn's
// TMPDIR, the arguments placed where each CLI's grammar takes options, a failed write one line.

import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { ScvError } from "../../src/errors.js";
import { prepareMcp, removeMcpDir, withMcpArgs } from "../../src/turn/mcp-turn.js";
import type { TurnPlan } from "../../src/turn/turn-types.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-mcp-turn-test-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function row(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(name);
  return found;
}

function plan(name: string, args: string[], overrides: Partial<TurnPlan> = {}): TurnPlan {
  return {
    entry: row(name),
    transport: "process",
    executable: name,
    args,
    home: join(root, "home"),
    account: "default",
    cwd: root,
    handle: `${name}-abc123`,
    policy: "default",
    extraEnv: {},
    prompt: "p",
    recordConversation: true,
    keepUsage: true,
    mcpServers: [{ name: "docs", server: { command: "docs-mcp", env: { TOKEN: "t" } } }],
    ...overrides,
  };
}

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

describe("prepareMcp", () => {
  it("writes the files 0600 in a 0700 folder of the turn's TMPDIR; removeMcpDir takes it all", () => {
    const temp = join(root, "scv-claude-abc123-Ab12Cd");
    mkdirSync(temp, { mode: 0o700 });
    const prepared = prepareMcp(plan("claude", ["-p", "x"]), temp);
    expect(prepared.dir).toBe(join(temp, "scv-mcp"));
    expect(mode(join(temp, "scv-mcp"))).toBe("700");
    expect(mode(join(temp, "scv-mcp", "mcp.json"))).toBe("600");
    expect(mode(join(temp, "scv-mcp", "docs.env"))).toBe("600");
    removeMcpDir(prepared.dir);
    expect(existsSync(join(temp, "scv-mcp"))).toBe(false);
  });

  it("uses a private folder in the agent home when the turn has no TMPDIR of its own", () => {
    const prepared = prepareMcp(plan("claude", ["-p", "x"]), "/tmp");
    expect(prepared.dir).toMatch(new RegExp(`^${join(root, "home", ".scv")}/mcp-[\\w-]{10}$`));
    expect(mode(prepared.dir ?? "")).toBe("700");
    removeMcpDir(prepared.dir);
  });

  it("writes nothing for a turn without servers", () => {
    expect(prepareMcp(plan("claude", ["-p"], { mcpServers: [] }), undefined)).toEqual({
      args: ["--strict-mcp-config"],
      env: {},
      dir: undefined,
    });
  });

  it("says in one line what failed and what to do", () => {
    const temp = join(root, "scv-claude-abc123-Ab12Cd");
    mkdirSync(temp, { mode: 0o700 });
    writeFileSync(join(temp, "scv-mcp"), "in the way");
    const failure = (() => {
      try {
        prepareMcp(plan("claude", ["-p"]), temp);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(ScvError);
    expect((failure as ScvError).message).toMatch(
      /^cannot write the turn's MCP server files in .*scv-mcp: EEXIST.* — a file stands where scv needs a folder/,
    );
  });
});

describe("withMcpArgs", () => {
  it("puts them after the fixed arguments, and after a continued turn's subcommand", () => {
    const claude = plan("claude", ["-p", "--verbose", "hi"]);
    expect(withMcpArgs(claude, claude.args, ["--strict-mcp-config"])).toEqual([
      "-p",
      "--strict-mcp-config",
      "--verbose",
      "hi",
    ]);
    const resumed = plan("codex", ["exec", "resume", "--json", "id", "hi"], {
      session: { kind: "continue", id: "id" },
    });
    expect(withMcpArgs(resumed, resumed.args, ["-c", "k=v"])).toEqual([
      "exec",
      "resume",
      "-c",
      "k=v",
      "--json",
      "id",
      "hi",
    ]);
    const codex = plan("codex", ["exec", "--json", "hi"]);
    expect(withMcpArgs(codex, codex.args, ["-c", "k=v"])).toEqual(["exec", "-c", "k=v", "--json", "hi"]);
  });
});
