// A reviewer's turn (src/turn/review-turn.ts, `review` in planTurn): policy default whatever the config
// says, the CLI's own command line, its row's read-only arguments where the policy's would go, and the
// findings' schema as a 0600 file in the turn's TMPDIR where the row's option takes a file.

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/home/config.js";
import { createTurnTemp } from "../../src/home/turn-temp.js";
import { findingsJsonSchema } from "../../src/review/schema.js";
import { planTurn } from "../../src/turn/plan.js";
import { prepareReview, removeReviewFile } from "../../src/turn/review-turn.js";

let root: string;
let bin: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-review-turn-"));
  bin = join(root, "bin");
  mkdirSync(bin);
  for (const name of ["codex", "claude", "gemini"]) {
    writeFileSync(join(bin, name), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, name), 0o755);
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function plan(agent: string, config: Config = {}, review = true) {
  return planTurn(
    { agent, prompt: "review this", review, record: false },
    { env: { PATH: bin, HOME: join(root, "home"), SCV_HOME: join(root, "scv") }, cwd: root, config },
  );
}

describe("a reviewer's turn", () => {
  it("runs under policy default and over the process transport, whatever the config says", () => {
    const config: Config = { agents: { gemini: { policy: "auto", transport: "acp" } } };
    const planned = plan("gemini", config);
    expect(planned.policy).toBe("default");
    expect(planned.transport).toBe("process");
    expect(planned.args).not.toContain("--yolo");
    // The same agent's ordinary turn keeps what the config asks.
    const ordinary = plan("gemini", config, false);
    expect([ordinary.policy, ordinary.transport]).toEqual(["auto", "acp"]);
  });

  it("puts Codex's read-only override and its schema file where the policy's arguments go", () => {
    const planned = plan("codex", { agents: { codex: { policy: "auto" } } });
    const temp = createTurnTemp(planned.handle, { TMPDIR: root }) as string;
    const prepared = prepareReview(planned, planned.args, temp);
    const file = join(temp, "scv-review-schema.json");
    const at = planned.review?.at ?? -1;
    expect(prepared.args.slice(at, at + 4)).toEqual([
      "-c",
      'sandbox_mode="read-only"',
      "--output-schema",
      file,
    ]);
    expect(prepared.args).not.toContain("--dangerously-bypass-approvals-and-sandbox");
    // Before the output options, after `exec`: the rest of the command line is the plan's.
    expect(prepared.args.slice(0, at)).toEqual(planned.args.slice(0, at));
    expect(prepared.args.slice(at + 4)).toEqual(planned.args.slice(at));
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(findingsJsonSchema());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(prepared.leftover).toBeUndefined();
  });

  it("gives Claude Code plan mode and the schema inline, with no file", () => {
    const planned = plan("claude");
    const prepared = prepareReview(planned, planned.args, undefined);
    const at = planned.review?.at ?? -1;
    expect(prepared.args.slice(at, at + 4)).toEqual([
      "--permission-mode",
      "plan",
      "--json-schema",
      JSON.stringify(findingsJsonSchema()),
    ]);
    expect(prepared.leftover).toBeUndefined();
  });

  it("writes the file in the agent home's private folder when the turn has no TMPDIR of its own, and removes it", () => {
    const planned = plan("codex");
    const prepared = prepareReview(planned, planned.args, undefined);
    const file = prepared.leftover as string;
    expect(file.startsWith(join(planned.home, ".scv"))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    removeReviewFile(prepared);
    expect(existsSync(file)).toBe(false);
  });

  it("leaves an ordinary turn's arguments as they are", () => {
    const planned = plan("codex", {}, false);
    expect(planned.review).toBeUndefined();
    expect(prepareReview(planned, planned.args, undefined)).toEqual({ args: planned.args });
  });
});
