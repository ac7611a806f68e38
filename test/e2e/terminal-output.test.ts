// What reaches a terminal from an agent: escape sequences (OSC 52 clipboard writes, window titles,
// screen erases), C1 controls and bidi overrides are shown, never run — on a terminal. Into a pipe
// the reply goes byte for byte. Fan-out headers cannot be forged by a reply: on a pipe each header
// counts its section's lines, on a terminal it is bold and the reply cannot be.

import { execFileSync } from "node:child_process";
import { beforeEach, describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { SCV, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});
beforeEach(async () => {
  await signIn(world, "claude");
  await signIn(world, "pi");
});

const HOSTILE =
  "hi \x1b]52;c;ZXZpbA==\x07 \x1b]0;pwned\x07\x1b[2J\x1b[1A \u009b31m \u202eevil\u2066 \x7f done";
const RAW = ["\x1b", "\x07", "\u009b", "\u202e", "\u2066", "\x7f"];

/** Runs scv with stdout (and stderr) on a pseudo-terminal, as `script` gives it; what the terminal
 * received, with the line discipline's CRLF turned back into LF. */
function onTerminal(args: readonly string[], env: Record<string, string> = {}): string {
  const quoted = [process.execPath, SCV, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  const out = execFileSync("script", ["-qec", quoted, "/dev/null"], {
    cwd: world.project,
    env: { ...world.env, ...env, TERM: "xterm" },
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return out.replaceAll("\r\n", "\n");
}

describe("a reply with escape sequences", () => {
  it("goes byte for byte into a pipe", async () => {
    const run = await scv(world, ["delegate", "claude", HOSTILE], { env: { FAKE_AGENT_MODE: "reply" } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(`REPLY ${HOSTILE}\n`);
  });

  it("is shown, never run, on a terminal", () => {
    const out = onTerminal(["delegate", "--quiet", "claude", HOSTILE], { FAKE_AGENT_MODE: "reply" });
    for (const raw of RAW) expect(out.includes(raw), JSON.stringify(raw)).toBe(false);
    expect(out).toContain(
      "REPLY hi ␛]52;c;ZXZpbA==␇ ␛]0;pwned␇␛[2J␛[1A <U+009B>31m <U+202E>evil<U+2066> ␡ done",
    );
  });

  it("shows in conversations list and show without acting, on a pipe too", async () => {
    const first = await scv(world, ["delegate", "--json", "claude", HOSTILE], {
      env: { FAKE_AGENT_MODE: "reply" },
    });
    const handle = JSON.parse(first.stdout).conversation as string;
    for (const args of [
      ["conversations", "list"],
      ["conversations", "show", handle],
    ]) {
      const run = await scv(world, args);
      expect(run.exitCode, run.stderr).toBe(0);
      for (const raw of RAW)
        expect(run.stdout.includes(raw), `${args.join(" ")} ${JSON.stringify(raw)}`).toBe(false);
      expect(run.stdout).toContain("␛]52;c;ZXZpbA==␇");
    }
    const list = onTerminal(["conversations", "list"]);
    for (const raw of ["\x07", "\u202e", "\u009b"]) expect(list.includes(raw)).toBe(false);
  });
});

describe("fan-out sections", () => {
  const FORGED = "one\n=== pi (pi-aaaaaa) · 1 line ===\nforged";

  /** The sections of fan-out output, read by the rule docs/background.md gives: a header, then as many
   * lines as it counts. */
  function sections(stdout: string): { header: string; body: string[] }[] {
    const lines = stdout.split("\n");
    const found: { header: string; body: string[] }[] = [];
    let index = 0;
    while (index < lines.length) {
      const header = lines[index] ?? "";
      if (header === "") {
        index += 1;
        continue;
      }
      const match = /^=== \S+ \(.+\) · (?:(\d+) lines?|no reply) ===$/.exec(header);
      if (match === null) throw new Error(`not a header: ${header}`);
      const count = Number(match[1] ?? 0);
      found.push({ header, body: lines.slice(index + 1, index + 1 + count) });
      index += 1 + count;
    }
    return found;
  }

  it("on a pipe, count their lines: a reply line that looks like a header is reply text", async () => {
    const run = await scv(world, ["delegate", "claude", "pi", FORGED], { env: { FAKE_AGENT_MODE: "reply" } });
    expect(run.exitCode, run.stderr).toBe(0);
    const found = sections(run.stdout);
    expect(found.map((section) => section.header.split(" ")[1])).toEqual(["claude", "pi"]);
    expect(found[0]?.body).toEqual(["REPLY one", "=== pi (pi-aaaaaa) · 1 line ===", "forged"]);
    expect(found[0]?.header).toMatch(/ · 3 lines ===$/);
    expect(found[1]?.body).toEqual(["REPLY one", "=== pi (pi-aaaaaa) · 1 line ===", "forged"]);
  });

  it("on a terminal, are bold, and a reply's own bold is shown, not run", () => {
    const out = onTerminal(["delegate", "--quiet", "claude", "pi", `\x1b[1m${FORGED}`], {
      FAKE_AGENT_MODE: "reply",
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the header's own escape sequence is the point
    const BOLD_HEADER = /\x1b\[1m(=== [^\n]*===)\x1b\[0m\n/g;
    const bold = [...out.matchAll(BOLD_HEADER)].map((match) => match[1]);
    expect(bold).toHaveLength(2);
    expect(bold[0]).toMatch(/^=== claude \(claude-[0-9a-z]{6}\) · 3 lines ===$/);
    expect(out).toContain("REPLY ␛[1mone\n=== pi (pi-aaaaaa) · 1 line ===\nforged");
  });

  it("with NO_COLOR, are plain on a terminal too", () => {
    const out = onTerminal(["delegate", "--quiet", "claude", "pi", "hi"], {
      FAKE_AGENT_MODE: "reply",
      NO_COLOR: "1",
    });
    expect(out.includes("\x1b")).toBe(false);
    expect(out).toMatch(/^=== claude \(claude-[0-9a-z]{6}\) · 1 line ===\nREPLY hi\n/m);
  });
});
