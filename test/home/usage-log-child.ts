// Run by usage-log.stress.test.ts, several at once: appends <count> lines to the usage log as writer
// <writer>, each with its own append.

import { appendUsage } from "../../src/home/usage-log.js";

const [writer, count] = process.argv.slice(2).map(Number);
for (let i = 0; i < (count ?? 0); i += 1)
  appendUsage(
    {
      v: 1,
      startedAt: "2026-12-03T10:00:00.000Z",
      durationMs: i,
      agent: `w${writer}`,
      account: "default",
      conversation: null,
      status: "completed",
      exitCode: 0,
      model: "x".repeat(150),
      usage: { input: 1, output: 2 },
    },
    { SCV_HOME: process.env.SCV_HOME },
  );
