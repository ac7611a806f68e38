// A conversation lock lost mid-turn (its folder removed, or not refreshed in time) must not end scv:
// proper-lockfile's default reaction throws from a timer, an uncaught exception with a stack trace.

import { existsSync, mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { conversationsDir, lockConversation } from "../../src/home/conversations.js";
import { timing } from "../../src/timing.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("a conversation lock that is lost", () => {
  it("leaves the turn running and its release quiet; the conversation can be locked again", async () => {
    const root = mkdtempSync(join(tmpdir(), "scv-lock-"));
    roots.push(root);
    const env = { SCV_HOME: root };
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on("uncaughtException", onError);
    try {
      const release = await lockConversation("codex-k3f9x2", env, 0);
      const folder = join(conversationsDir(env), "codex-k3f9x2.json.lock");
      expect(existsSync(folder)).toBe(true);
      rmdirSync(folder);
      // The library refreshes the lock (every second at least) and notices then that it is gone.
      await new Promise((resolve) => setTimeout(resolve, Math.max(1_000, timing("lockRefresh")) + 500));
      await release();
      expect(errors).toEqual([]);
      const again = await lockConversation("codex-k3f9x2", env, 0);
      await again();
    } finally {
      process.off("uncaughtException", onError);
    }
  }, 15_000);
});
