// The usage log under concurrent appenders: processes appending at once lose no line and tear none
// (each line is one O_APPEND write).

import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readUsage } from "../../src/home/usage-log.js";
import { builtChild } from "../helpers/child.js";

let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "scv-usage-log-"));
  env = { SCV_HOME: join(root, "scv") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const DEC = new Date("2026-12-01T00:00:00Z");
const LATER = new Date("2027-01-01T00:00:00Z");

describe("the usage log", () => {
  it("loses no line when processes append at once", async () => {
    const processes = 8;
    const each = 50;
    const child = await builtChild(join(import.meta.dirname, "usage-log-child.ts"));
    const run = promisify(execFile);
    await Promise.all(
      Array.from({ length: processes }, (_, writer) =>
        run(process.execPath, [child, String(writer), String(each)], {
          env: { ...process.env, SCV_HOME: env.SCV_HOME },
        }),
      ),
    );
    const { entries, skippedLines } = readUsage(DEC, LATER, env);
    expect(skippedLines).toBe(0);
    expect(entries).toHaveLength(processes * each);
    const seen = new Set(entries.map((e) => `${e.agent}/${e.durationMs}`));
    expect(seen.size).toBe(processes * each);
  }, 60_000);
});
