// Where a session host's socket goes: in $SCV_HOME/hosts while that path fits a unix socket's
// sun_path, else in the first short private folder that fits ($XDG_RUNTIME_DIR, $TMPDIR, /tmp), named
// by the home's hash; such a folder is used only when it is this user's own, no link, 0700.

import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostSocket, SOCKET_PATH_MAX, socketFolders } from "../../../src/home/host-files.js";
import { preparedHostSocket, privateFolder } from "../../../src/home/host-socket.js";

const HANDLE = "gemini-aaaaaa";
const DEEP = `/${"d".repeat(100)}/scv`;
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-socket-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a session host's socket", () => {
  it("stays in $SCV_HOME/hosts while the path fits", () => {
    expect(hostSocket(HANDLE, { SCV_HOME: "/home/u/.local/share/scv" })).toBe(
      `/home/u/.local/share/scv/hosts/${HANDLE}.sock`,
    );
  });

  it("goes to $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp when it does not; the same home, the same folder", () => {
    const uid = process.getuid?.();
    const xdg = hostSocket(HANDLE, { SCV_HOME: DEEP, XDG_RUNTIME_DIR: "/run/user/1000", TMPDIR: "/var/t" });
    expect(xdg).toMatch(new RegExp(`^/run/user/1000/scv-[0-9a-f]{8}/${HANDLE}\\.sock$`));
    const tmp = hostSocket(HANDLE, { SCV_HOME: DEEP, TMPDIR: "/var/t" });
    expect(tmp).toMatch(new RegExp(`^/var/t/scv-${uid}-[0-9a-f]{8}/${HANDLE}\\.sock$`));
    expect(hostSocket(HANDLE, { SCV_HOME: DEEP, TMPDIR: `/${"t".repeat(90)}` })).toMatch(
      new RegExp(`^/tmp/scv-${uid}-[0-9a-f]{8}/${HANDLE}\\.sock$`),
    );
    expect(hostSocket(HANDLE, { SCV_HOME: DEEP, TMPDIR: "/var/t" })).toBe(tmp);
    // Another home, another folder.
    expect(dirname(hostSocket(HANDLE, { SCV_HOME: `${DEEP}2`, TMPDIR: "/var/t" }) ?? "")).not.toBe(
      dirname(tmp ?? ""),
    );
    for (const path of [xdg, tmp]) expect(Buffer.byteLength(path ?? "")).toBeLessThanOrEqual(SOCKET_PATH_MAX);
    // A relative runtime folder is ignored.
    expect(socketFolders({ SCV_HOME: DEEP, XDG_RUNTIME_DIR: "run" })).toHaveLength(1);
  });

  it("its short folder is made 0700, and refused when open to others, a link, or not made", () => {
    const env = { SCV_HOME: DEEP, TMPDIR: root };
    const socket = preparedHostSocket(HANDLE, env);
    expect(socket).toBeDefined();
    const folder = dirname(socket ?? "");
    expect(privateFolder(folder)).toBe(true);
    chmodSync(folder, 0o750);
    expect(preparedHostSocket(HANDLE, env)).toBeUndefined();
    rmSync(folder, { recursive: true });
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, folder);
    expect(preparedHostSocket(HANDLE, env)).toBeUndefined();
    expect(privateFolder(join(root, "no-such-parent", "scv-x"))).toBe(false);
  });
});
