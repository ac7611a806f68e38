// A reply of several MiB arrives as one stdout line (Claude's `assistant` and `result`, Codex's
// `item.completed`): such a line is read up to 64 MiB and the reply printed byte for byte on a pipe,
// while any other line keeps the 4 MiB bound (a tool output of 5 MiB is still dropped, counted as a
// bad line) — and scv's memory stays bounded by what it reads.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { expectLongReply, longReply, MiB } from "../helpers/long-reply.js";
import { scv, signIn } from "../helpers/scv.js";

const lab = useLab();
describe("a reply longer than the 4 MiB line bound", () => {
  for (const agent of ["claude", "codex"]) {
    // 20 MiB: long-reply.stress.test.ts.
    for (const size of [5]) {
      it(`${agent}: a ${size} MiB reply on one line, byte for byte, memory bounded`, async () => {
        await expectLongReply(lab.world, agent, size);
      }, 60_000);
    }
  }

  it("--json: the whole reply, and no bad line", { timeout: 60_000 }, async () => {
    await signIn(lab.world, "claude");
    const reply = longReply(5 * MiB);
    const file = join(lab.world.root, "reply.txt");
    writeFileSync(file, reply);
    const run = await scv(lab.world, ["delegate", "claude", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: `reply-file:${file}` },
    });
    expect(run.exitCode, run.stderr.slice(0, 500)).toBe(0);
    const result = JSON.parse(run.stdout) as { reply: string; badLines: number; status: string };
    expect(result.status).toBe("completed");
    expect(result.reply === reply).toBe(true);
    expect(result.badLines).toBe(0);
  });

  it("a 5 MiB line that is not the reply (a tool's output) is still dropped", {
    timeout: 60_000,
  }, async () => {
    await signIn(lab.world, "claude");
    const run = await scv(lab.world, ["delegate", "claude", "--json", "Say hi"], {
      env: { FAKE_AGENT_MODE: "tools:1", FAKE_AGENT_TOOL_OUTPUT_BYTES: String(5 * MiB) },
    });
    expect(run.exitCode, run.stderr.slice(0, 500)).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "completed", reply: "MOCK-REPLY-1", badLines: 1 });
  });
});
