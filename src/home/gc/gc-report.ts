// The report of `scv agents gc` (`--json` prints it as is; the table is rendered from it).

import * as z from "zod/mini";
import { formatDuration } from "../../duration.js";
import { type AgentGcResult, GC_KINDS, type GcItem, type GcPlan } from "./items.js";

const countsSchema = z.object({
  transcripts: z.int().check(z.nonnegative()),
  records: z.int().check(z.nonnegative()),
  /** Lock folders and temp files left by crashed runs. */
  leftovers: z.int().check(z.nonnegative()),
  folders: z.int().check(z.nonnegative()),
  bytes: z.int().check(z.nonnegative()),
});

const noteSchema = z.object({ path: z.string(), reason: z.string() });

export const gcReportSchema = z.object({
  /** True when nothing was removed and `items` is what would go. */
  dryRun: z.boolean(),
  olderThan: z.string(),
  olderThanMs: z.int().check(z.positive()),
  /** What gc had to leave in scv's own conversation folder. */
  notes: z.array(noteSchema),
  agents: z.array(
    z.object({
      agent: z.string(),
      /** Why its transcripts were not looked at, or null. */
      skipped: z.nullable(z.string()),
      counts: countsSchema,
      items: z.array(
        z.object({
          kind: z.enum(GC_KINDS),
          path: z.string(),
          bytes: z.int().check(z.nonnegative()),
          modified: z.string(),
          /** The conversation it belongs to; null when none. */
          handle: z.nullable(z.string()),
        }),
      ),
      kept: z.array(noteSchema),
      failed: z.array(noteSchema),
    }),
  ),
  total: countsSchema,
});

export type GcReport = z.infer<typeof gcReportSchema>;
type GcCounts = z.infer<typeof countsSchema>;

function countItems(items: readonly GcItem[]): GcCounts {
  const counts: GcCounts = { transcripts: 0, records: 0, leftovers: 0, folders: 0, bytes: 0 };
  for (const item of items) {
    if (item.kind === "transcript") counts.transcripts++;
    else if (item.kind === "record") counts.records++;
    else if (item.kind === "folder") counts.folders++;
    else counts.leftovers++;
    counts.bytes += item.bytes;
  }
  return counts;
}

/** The report of a dry run (`results` absent: what would go) or of a run (what went). */
export function gcReport(plan: GcPlan, results?: readonly AgentGcResult[]): GcReport {
  const agents = plan.agents.map((agent) => {
    const result = results?.find((candidate) => candidate.agent === agent.agent);
    const items = result === undefined ? agent.items : result.removed;
    return {
      agent: agent.agent,
      skipped: agent.skipped ?? null,
      counts: countItems(items),
      items: items.map((item) => ({
        kind: item.kind,
        path: item.path,
        bytes: item.bytes,
        modified: new Date(item.mtimeMs).toISOString(),
        handle: item.handle ?? null,
      })),
      kept: [...(result === undefined ? agent.notes : result.kept)],
      failed: [...(result?.failed ?? [])],
    };
  });
  const total = countItems([]);
  for (const agent of agents) {
    for (const key of Object.keys(total) as (keyof GcCounts)[]) total[key] += agent.counts[key];
  }
  return {
    dryRun: results === undefined,
    olderThan: formatDuration(plan.olderThanMs),
    olderThanMs: plan.olderThanMs,
    notes: [...plan.notes],
    agents,
    total,
  };
}
