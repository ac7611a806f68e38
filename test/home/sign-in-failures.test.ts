// The sign-in mark in $SCV_HOME/cache/sign-in-failed/<agent> (the default account) or
// <agent>@<account>: one per account, kept by its mtime, and never written through a link a process
// of the same user planted in its place or its folder's.

import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clearSignInFailed,
  markSignInFailed,
  signInFailedRecently,
} from "../../src/home/sign-in-failures.js";

let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-sign-in-failures-"));
  env = { SCV_HOME: join(root, "scv") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const marks = () => join(root, "scv", "cache", "sign-in-failed");

describe("the sign-in mark", () => {
  it("counts for an hour, is renewed by a new refusal, and goes with a sign-in", () => {
    markSignInFailed("claude", "default", env);
    expect(statSync(join(marks(), "claude")).mode & 0o777).toBe(0o600);
    expect(statSync(marks()).mode & 0o777).toBe(0o700);
    expect(signInFailedRecently("claude", "default", env)).toBe(true);
    expect(signInFailedRecently("claude", "default", env, Date.now() + 61 * 60_000)).toBe(false);
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    utimesSync(join(marks(), "claude"), old, old);
    expect(signInFailedRecently("claude", "default", env)).toBe(false);
    markSignInFailed("claude", "default", env);
    expect(signInFailedRecently("claude", "default", env)).toBe(true);
    clearSignInFailed("claude", "default", env);
    expect(signInFailedRecently("claude", "default", env)).toBe(false);
  });

  it("is kept per account: one account's refusal and sign-in leave another's mark alone", () => {
    markSignInFailed("codex", "work", env);
    expect(statSync(join(marks(), "codex@work")).mode & 0o777).toBe(0o600);
    expect(signInFailedRecently("codex", "work", env)).toBe(true);
    expect(signInFailedRecently("codex", "default", env)).toBe(false);
    expect(signInFailedRecently("codex", "personal", env)).toBe(false);
    markSignInFailed("codex", "default", env);
    clearSignInFailed("codex", "work", env);
    expect(signInFailedRecently("codex", "work", env)).toBe(false);
    expect(signInFailedRecently("codex", "default", env)).toBe(true);
    // A name that is no slug is never a file name.
    markSignInFailed("codex", "../x", env);
    expect(signInFailedRecently("codex", "../x", env)).toBe(false);
  });

  it("is never written through a link in its place: what the link names is left whole", () => {
    const victim = join(root, "victim");
    writeFileSync(victim, "keep me\n");
    mkdirSync(marks(), { recursive: true, mode: 0o700 });
    symlinkSync(victim, join(marks(), "claude"));
    markSignInFailed("claude", "default", env);
    expect(readFileSync(victim, "utf8")).toBe("keep me\n");
    expect(signInFailedRecently("claude", "default", env)).toBe(false);
  });

  it("is not made in a folder that a link replaced", () => {
    const outside = join(root, "outside");
    mkdirSync(outside, { mode: 0o755 });
    mkdirSync(join(root, "scv", "cache"), { recursive: true, mode: 0o700 });
    symlinkSync(outside, marks());
    markSignInFailed("claude", "default", env);
    expect(statSync(outside).mode & 0o777).toBe(0o755);
    expect(() => statSync(join(outside, "claude"))).toThrow();
  });
});
