// Every document scv prints with `--json`: the command that prints it, what it is, and its schema.
// `npm run docs` writes each schema to docs/json/<name>.schema.json (JSON Schema 2020-12), and
// test/e2e/json-shapes.test.ts checks what each command printed against that file. The rule every
// document keeps (a field is always there, null where there is no value) is json-shapes.ts's.

import * as z from "zod/mini";
import { gcReportSchema } from "./home/gc/gc-report.js";
import { usageReportSchema } from "./home/usage-totals.js";
import {
  checkShape,
  conversationShape,
  conversationShowShape,
  launchShape,
  listingShape,
  psHostShape,
  psTurnShape,
  statusFields,
  statusRowShape,
  turnResultShape,
} from "./json-shapes.js";
import { reviewedResultShape, reviewReportShape } from "./review/report-json.js";
import { comparisonRowShape, gcWorktreeShape } from "./worktree-shapes.js";

const oneOrMany = <T extends z.ZodMiniType>(one: T) => z.union([one, z.array(one)]);

/** Each `--json` document: the command that prints it and its schema. */
export const JSON_DOCUMENTS = {
  delegate: {
    command: "scv delegate … --json",
    about: "one turn's result; for several agents, an array of them in the order given",
    schema: () => oneOrMany(turnResultShape()),
  },
  "delegate-reviewed": {
    command: "scv delegate --review-by <reviewers> [--rounds N] <agent> … --json",
    about: "the author's last turn, with each round's review of its changes",
    schema: () => reviewedResultShape(),
  },
  "delegate-background": {
    command: "scv delegate --background … --json",
    about: "each turn as it was launched (an array for several agents)",
    schema: () => oneOrMany(launchShape()),
  },
  wait: {
    command: "scv wait <job|handle>… --json",
    about:
      "the result of the one job waited for, or an array of results: a turn's, a reviewed delegation's, or a background review's report",
    schema: () => oneOrMany(z.union([turnResultShape(), reviewedResultShape(), reviewReportShape()])),
  },
  review: {
    command: "scv review … --json (also the MCP review tool's structured content)",
    about: "the review's report: its verdict, the merged findings, each reviewer, what was skipped",
    schema: () => reviewReportShape(),
  },
  ps: {
    command: "scv ps --json",
    about: "the running turns, then the session hosts, each with its kind",
    schema: () => z.array(z.discriminatedUnion("kind", [psTurnShape(), psHostShape()])),
  },
  "agents-list": {
    command: "scv agents list --json",
    about: "every agent",
    schema: () => z.array(listingShape()),
  },
  "agents-status": {
    command: "scv agents status [<agent>[@account]] --json",
    about:
      "no agent: every account's row; agent@account: that row; agent: the default account's row with accounts, every account's row",
    schema: () =>
      z.union([
        z.array(statusRowShape()),
        z.object({ ...statusFields(), accounts: z.array(statusRowShape()) }),
        statusRowShape(),
      ]),
  },
  "agents-check": {
    command: "scv agents check <agent> --json",
    about: "one tiny real turn's verdict",
    schema: () => checkShape(),
  },
  "agents-gc": {
    command: "scv agents gc … --json",
    about:
      "what went (or with --dry-run would go), and what was left and why; worktrees: what became of old conversations' worktrees",
    schema: () => z.extend(gcReportSchema, { worktrees: z.array(gcWorktreeShape()) }),
  },
  "conversations-list": {
    command: "scv conversations list --json",
    about: "every conversation, most recently used first",
    schema: () => z.array(conversationShape()),
  },
  "conversations-show": {
    command: "scv conversations show <handle> --json",
    about: "one conversation, and what its next turn would run with",
    schema: () => conversationShowShape(),
  },
  compare: {
    command: "scv compare <handle|job>… --json",
    about: "one row per attempt, as the table after a fan-out with worktrees shows them",
    schema: () => z.array(comparisonRowShape()),
  },
  usage: {
    command: "scv usage … --json",
    about: "the totals of the turns in the window",
    schema: () => usageReportSchema(),
  },
} as const;

export type JsonDocument = keyof typeof JSON_DOCUMENTS;
