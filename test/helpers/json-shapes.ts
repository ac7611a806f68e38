// The world of the `--json` shape tests (test/e2e/json-shapes*.test.ts): each document the built scv
// prints, checked against its schema in docs/json/ (JSON Schema 2020-12).

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import type { JsonDocument } from "../../src/json-documents.js";
import { identify } from "../../src/os/processes.js";
import { useLab } from "./lab.js";
import { scv, type World } from "./scv.js";

const ROOT = join(import.meta.dirname, "..", "..");
const ajv = new Ajv2020({ allErrors: true, strict: false });

function validate(name: JsonDocument, stdout: string): unknown {
  const schema = JSON.parse(readFileSync(join(ROOT, "docs", "json", `${name}.schema.json`), "utf8"));
  const document: unknown = JSON.parse(stdout);
  const check = ajv.compile(schema);
  const valid = check(document);
  expect(valid ? [] : check.errors, `${name}: ${stdout.slice(0, 2000)}`).toEqual([]);
  return document;
}

export interface Shapes {
  /** `scv … --json` in the test's world, its document checked against `name`'s schema. */
  json(
    name: JsonDocument,
    args: readonly string[],
    env?: Record<string, string>,
  ): Promise<{ run: Awaited<ReturnType<typeof scv>>; document: Record<string, unknown> }>;
  /** A live process standing in for a session host and its server (ps checks both by pid and
   * start), killed after the test. */
  sleeper(): { pid: number; startTime: string };
}

/** A fresh world for each test of the calling file (useLab), and the document checks in it. */
export function useShapes(take: (world: World) => void): Shapes {
  const lab = useLab(take);
  return {
    async json(name, args, env = {}) {
      const run = await scv(lab.world, [...args, "--json"], { env });
      expect(run.stdout, run.stderr).not.toBe("");
      return { run, document: validate(name, run.stdout) as Record<string, unknown> };
    },
    sleeper() {
      const child = spawn("sleep", ["600"], { stdio: "ignore", detached: true });
      child.unref();
      const pid = child.pid as number;
      lab.track([pid]);
      const identity = identify(pid);
      if (identity === undefined) throw new Error("no start time for the sleeper");
      return identity;
    },
  };
}
