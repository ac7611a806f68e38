// Nothing inside $SCV_HOME is followed when it is a symbolic link: not where scv makes or tightens
// its private folders, not where it writes a key, not where it opens a background turn's log.
// $SCV_HOME itself may be a link (where it lives is the user's choice).

import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import {
  ensureAgentHome,
  ensurePrivateDir,
  ensureScvDir,
  openOwnFileForAppend,
  tightenCredentialFiles,
} from "../../src/home/agent-home.js";
import { lockConversation, writeConversation } from "../../src/home/conversations.js";
import { holdCredentials } from "../../src/home/credential-hold.js";
import { writePrivate } from "../../src/home/keystores/files.js";

let root: string;
let scvHome: string;
let outside: string;
let env: Record<string, string>;
const mode = (path: string) => statSync(path).mode & 0o777;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-nofollow-"));
  scvHome = join(root, "scv-home");
  outside = join(root, "outside");
  mkdirSync(scvHome, { mode: 0o700 });
  mkdirSync(outside, { mode: 0o755 });
  chmodSync(outside, 0o755);
  env = { SCV_HOME: scvHome, HOME: join(root, "user") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function expectRefused(action: () => unknown, path: string): void {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ScvError);
    const message = (error as ScvError).message;
    expect(message).toContain(path);
    expect(message).toMatch(/is a symbolic link, and scv never follows one inside its home — move it away/);
    expect(message).not.toContain("\n");
    return;
  }
  throw new Error("expected a refusal");
}

describe("private folders", () => {
  it.each([
    ["agents/claude", () => ensureAgentHome("claude", env)],
    ["agents", () => ensureAgentHome("claude", env)],
    ["conversations", () => ensureScvDir(env, "conversations")],
    ["turns", () => ensureScvDir(env, "turns")],
    ["tools", () => ensureScvDir(env, "tools")],
    ["cache", () => ensureScvDir(env, "cache", "v8")],
  ] as const)("refuses a planted link at $SCV_HOME/%s, and leaves its target alone", (planted, action) => {
    mkdirSync(join(scvHome, planted, ".."), { recursive: true });
    symlinkSync(outside, join(scvHome, planted));
    expectRefused(action, join(scvHome, planted));
    expect(mode(outside)).toBe(0o755);
    expect(existsSync(join(outside, "claude"))).toBe(false);
  });

  it("refuses a dangling link, and a file where a folder belongs", () => {
    symlinkSync(join(root, "nowhere"), join(scvHome, "turns"));
    expectRefused(() => ensureScvDir(env, "turns"), join(scvHome, "turns"));
    expect(existsSync(join(root, "nowhere"))).toBe(false);
    writeFileSync(join(scvHome, "conversations"), "");
    expect(() => ensureScvDir(env, "conversations")).toThrow(/conversations is not a folder/);
  });

  it("refuses a link inside an agent home where scv makes a folder of its own", () => {
    const home = ensureAgentHome("codex", env);
    symlinkSync(outside, join(home, ".scv"));
    expectRefused(() => ensurePrivateDir(join(home, ".scv"), home), join(home, ".scv"));
    expect(mode(outside)).toBe(0o755);
  });

  it("follows $SCV_HOME itself when it is a link, and makes and tightens what is below it", () => {
    const real = join(root, "real-home");
    mkdirSync(real, { mode: 0o755 });
    chmodSync(real, 0o755);
    const linked = join(root, "linked-home");
    symlinkSync(real, linked);
    const home = ensureAgentHome("claude", { ...env, SCV_HOME: linked });
    expect(home).toBe(join(linked, "agents", "claude"));
    expect(mode(real)).toBe(0o700);
    expect(mode(join(real, "agents", "claude"))).toBe(0o700);
    chmodSync(join(real, "agents", "claude"), 0o755);
    ensureAgentHome("claude", { ...env, SCV_HOME: linked });
    expect(mode(join(real, "agents", "claude"))).toBe(0o700);
  });

  it("writes conversation records and takes their locks only in a folder of its own", async () => {
    symlinkSync(outside, join(scvHome, "conversations"));
    await expect(lockConversation("codex-abcdef", env)).rejects.toThrow(/is a symbolic link/);
    expect(() =>
      writeConversation(
        {
          handle: "codex-abcdef",
          agent: "codex",
          cwd: "/",
          policy: "auto",
          createdAt: "x",
          updatedAt: "x",
          turns: 1,
          usage: {},
        },
        env,
      ),
    ).toThrow(/is a symbolic link/);
    expect(existsSync(join(outside, "codex-abcdef.json"))).toBe(false);
  });
});

describe("key files", () => {
  it("never writes a key through a link to a folder planted in the agent home", async () => {
    const home = ensureAgentHome("claude", env);
    symlinkSync(outside, join(home, ".claude"));
    await expect(writePrivate(home, join(home, ".claude", "settings.json"), "{}\n")).rejects.toThrow(
      /\.claude is a symbolic link/,
    );
    expect(existsSync(join(outside, "settings.json"))).toBe(false);
    expect(mode(outside)).toBe(0o755);
  });

  it("puts held credentials back only into folders of its own", () => {
    const home = ensureAgentHome("claude", env);
    mkdirSync(join(home, ".claude"), { mode: 0o700 });
    writeFileSync(join(home, ".claude", ".credentials.json"), "held", { mode: 0o600 });
    const held = holdCredentials(home, [".claude/.credentials.json"]);
    rmSync(join(home, ".claude"), { recursive: true });
    symlinkSync(outside, join(home, ".claude"));
    expect(held.restore()).toEqual([]);
    expect(existsSync(join(outside, ".credentials.json"))).toBe(false);
  });

  it("tightens a loosened credential file, never a link's target", () => {
    const home = ensureAgentHome("qwen", env);
    const target = join(outside, "settings.json");
    writeFileSync(target, "{}");
    chmodSync(target, 0o644);
    mkdirSync(join(home, ".qwen"));
    symlinkSync(target, join(home, ".qwen", "settings.json"));
    writeFileSync(join(home, "own.json"), "{}");
    chmodSync(join(home, "own.json"), 0o644);
    tightenCredentialFiles(home, [".qwen/settings.json", "own.json", "absent.json"]);
    expect(mode(target)).toBe(0o644);
    expect(mode(join(home, "own.json"))).toBe(0o600);
  });
});

describe("a background turn's log", () => {
  it("is opened only as a regular file of its own: not through a link, not a FIFO", () => {
    const turns = ensureScvDir(env, "turns");
    const target = join(outside, "secret.txt");
    writeFileSync(target, "the user's file\n");
    const link = join(turns, "codex-abcdef.log");
    symlinkSync(target, link);
    expectRefused(() => openOwnFileForAppend(link), link);
    expect(readFileSync(target, "utf8")).toBe("the user's file\n");
    const fifo = join(turns, "codex-fifo01.log");
    execFileSync("mkfifo", [fifo]);
    expect(() => openOwnFileForAppend(fifo)).toThrow(/is not a regular file/);
    const own = join(turns, "codex-own001.log");
    const fd = openOwnFileForAppend(own);
    expect(lstatSync(own).isFile()).toBe(true);
    expect(mode(own)).toBe(0o600);
    closeSync(fd);
  });
});
