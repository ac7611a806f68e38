// Parser throughput and memory: each case (format × size × scv-or-ceiling) in its own child
// process (bench/out/parser-case.mjs), scv and the ceiling interleaved so both see the same machine.

import { join } from "node:path";
import { cleanEnv, median, mustRun, OUT, ROOT } from "../lib.js";
import type { CaseMode, CaseResult } from "./case.js";
import type { StreamFormat } from "./generate.js";

export interface ParserRow {
  readonly format: StreamFormat;
  /** Requested stream size in bytes (the stream ends whole, a little past it). */
  readonly size: number;
  readonly runs: number;
  /** Median MB/s (10^6 bytes per second of time spent consuming). */
  readonly scvMBps: number;
  readonly ceilingMBps: number;
  /** Highest peak RSS over the runs, in MB. */
  readonly scvRssMB: number;
  readonly ceilingRssMB: number;
}

const CASE = join(OUT, "parser-case.mjs");

async function runCase(format: StreamFormat, size: number, mode: CaseMode): Promise<CaseResult> {
  const run = await mustRun(process.execPath, [CASE, ROOT, format, String(size), mode], { env: cleanEnv() });
  return JSON.parse(run.stdout) as CaseResult;
}

export async function parserBench(
  sizes: readonly { size: number; runs: number }[],
  log: (line: string) => void,
): Promise<ParserRow[]> {
  const rows: ParserRow[] = [];
  for (const { size, runs } of sizes) {
    for (const format of ["claude", "codex"] as const) {
      const results: Record<CaseMode, CaseResult[]> = { scv: [], ceiling: [] };
      for (let i = 0; i < runs; i += 1) {
        // Alternate which goes first, so neither always meets the same moment of a noisy machine.
        const order: CaseMode[] = i % 2 === 0 ? ["scv", "ceiling"] : ["ceiling", "scv"];
        for (const mode of order) {
          const result = await runCase(format, size, mode);
          results[mode].push(result);
          log(
            `  parsers ${format} ${size / 1e6} MB ${mode}: ${(result.bytes / 1e6 / result.seconds).toFixed(0)} MB/s`,
          );
        }
      }
      const mbps = (list: CaseResult[]) => median(list.map((r) => r.bytes / 1e6 / r.seconds));
      const rss = (list: CaseResult[]) => Math.max(...list.map((r) => r.maxRssBytes)) / 1e6;
      rows.push({
        format,
        size,
        runs,
        scvMBps: mbps(results.scv),
        ceilingMBps: mbps(results.ceiling),
        scvRssMB: rss(results.scv),
        ceilingRssMB: rss(results.ceiling),
      });
    }
  }
  return rows;
}
