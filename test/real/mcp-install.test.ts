// `scv mcp install|uninstall <host>` against the pinned host CLIs, in the lab's HOME (never this
// machine's): each host's own `mcp get`/`mcp list` must then show scv with the path scv runs from and
// its SCV_HOME, the tool-call limit where scv sets one, and — where the listing connects to the server
// (Claude Code, Qwen Code, OpenCode, pi, Kilo Code, Droid) — a server that answered; uninstalling removes; installing twice
// replaces (tried where a host's `mcp add` refuses a name it has). scv's private agent homes never get
// the registration.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import {
  describeRun,
  type Lab,
  linkCopilotCache,
  type ScvRun,
  scvEntry,
  sharedCopilotPkg,
} from "./harness.js";
import { BIN, named, newCanary, newLab, pinVersion } from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";

interface HostCheck {
  readonly host: string;
  /** The host's own view of its registered servers. */
  readonly show: readonly string[];
  /** What that view says of a server that answered, where it connects to it. */
  readonly connected?: RegExp;
  /** What the host's config holds for scv's tool-call limit, where scv sets one. */
  readonly limit?: { file: string; text: string };
  /** Installed twice: the host's own `mcp add` refuses a name it has (scv removes it first). */
  readonly twice?: boolean;
  /** The host's own file that names scv's path, where its view does not show the command. */
  readonly file?: string;
  /** What a user of the host has done in the folder before: Claude Code (2.1.337) checks a server only
   * in a folder its owner trusted ("Not checked (folder not trusted; run `claude` here)"). */
  readonly before?: (lab: Lab) => void;
}

/** The folder marked trusted in Claude Code's user state, as its trust dialog does. */
function trustClaudeFolder(lab: Lab): void {
  const file = join(lab.home, ".claude.json");
  const state = JSON.parse(readFileSync(file, "utf8")) as {
    projects?: Record<string, Record<string, unknown>>;
  };
  const projects = state.projects ?? {};
  projects[lab.cwd] = { ...projects[lab.cwd], hasTrustDialogAccepted: true };
  writeFileSync(file, JSON.stringify({ ...state, projects }, null, 2));
}

const HOSTS: readonly HostCheck[] = [
  {
    host: "claude",
    show: ["mcp", "get", "scv"],
    connected: /Status: \S+ Connected/,
    twice: true,
    before: trustClaudeFolder,
  },
  {
    host: "codex",
    show: ["mcp", "get", "scv", "--json"],
    limit: { file: ".codex/config.toml", text: "tool_timeout_sec = 120" },
  },
  { host: "gemini", show: ["mcp", "list"] },
  { host: "qwen", show: ["mcp", "list"], connected: /scv: .* - Connected/ },
  {
    host: "copilot",
    show: ["mcp", "get", "scv"],
    limit: { file: ".copilot/mcp-config.json", text: '"timeout": 120000' },
    twice: true,
  },
  {
    host: "pi",
    show: ["mcp", "list", "--json"],
    connected: /"state": "connected"/,
    limit: { file: ".pi/agent/mcp.json", text: '"timeout": 120' },
  },
  {
    host: "opencode",
    show: ["mcp", "list"],
    connected: /scv.*connected/i,
    limit: { file: ".config/opencode/opencode.jsonc", text: '"timeout": 120000' },
  },
  {
    host: "kilo",
    show: ["mcp", "list"],
    connected: /scv.*connected/i,
    limit: { file: ".config/kilo/kilo.jsonc", text: '"timeout": 120000' },
  },
  {
    host: "droid",
    show: ["mcp", "list"],
    connected: /scv\s+stdio\s+connected/,
    file: ".factory/mcp.json",
    twice: true,
  },
];

describe.skipIf(BIN === undefined)("scv mcp install with the real hosts", () => {
  let trap: MockServer;
  let lab: Lab;

  beforeAll(async () => {
    trap = await startMock({ shape: "openai-chat", text: "TRAP" });
    lab = newLab("mcp-install", newCanary(), trap);
    linkCopilotCache(lab.home, sharedCopilotPkg(BIN ?? "", pinVersion("copilot")));
  });

  afterAll(async () => {
    await trap?.close();
    await lab?.[Symbol.asyncDispose]();
  });

  const scv = (args: readonly string[]) => lab.scv(args, { limitMs: 120_000 });
  const show = (check: HostCheck): Promise<ScvRun> =>
    lab.run(join(BIN ?? "", check.host), check.show, {
      // In the user's HOME, where the host looks for its user configuration.
      env: { ...lab.env },
      limitMs: 60_000,
    });

  it.each(HOSTS)(
    "$host: registered with its own command or file, shown by the host, removed again",
    async (check) => {
      const who = named(check.host);
      // What the row claims is what runs here.
      expect(adapter(check.host)?.mcpHost).toMatchObject({
        verified: { kind: "lab", version: pinVersion(check.host) },
      });
      for (let round = 0; round < (check.twice ? 2 : 1); round += 1) {
        const run = await scv(["mcp", "install", check.host]);
        expect(run.code, `${who}: scv mcp install (round ${round + 1})\n${describeRun(run)}`).toBe(0);
      }
      check.before?.(lab);
      const shown = await show(check);
      const text = `${shown.stdout}\n${shown.stderr}`;
      const registered = check.file === undefined ? text : readFileSync(join(lab.home, check.file), "utf8");
      expect(registered, `${who} does not show scv's server\n${describeRun(shown)}`).toContain(scvEntry());
      if (check.connected !== undefined)
        expect(text, `${who} could not talk to scv mcp`).toMatch(check.connected);
      if (check.limit !== undefined) {
        expect(readFileSync(join(lab.home, check.limit.file), "utf8")).toContain(check.limit.text);
      }
      const removed = await scv(["mcp", "uninstall", check.host]);
      expect(removed.code, describeRun(removed)).toBe(0);
      expect(removed.stdout).toMatch(/^removed scv from /);
      const after = await show(check);
      const left =
        check.file === undefined
          ? `${after.stdout}\n${after.stderr}`
          : readFileSync(join(lab.home, check.file), "utf8");
      expect(left, `${who} still shows scv`).not.toContain(scvEntry());
      const again = await scv(["mcp", "uninstall", check.host]);
      expect([again.code, again.stdout], describeRun(again)).toEqual([
        0,
        expect.stringMatching(/^scv was not registered with /),
      ]);
    },
  );

  it("scv's private agent homes never got the registration", () => {
    const agents = join(lab.scvHome, "agents");
    let homes: string[] = [];
    try {
      homes = readdirSync(agents);
    } catch {
      // no agent home at all: nothing registered there either
    }
    for (const home of homes) {
      for (const file of readdirSync(join(agents, home), { recursive: true, encoding: "utf8" })) {
        let content = "";
        try {
          content = readFileSync(join(agents, home, file), "utf8");
        } catch {
          continue;
        }
        expect(content, `${home}/${file}`).not.toContain(scvEntry());
      }
    }
  });
});
