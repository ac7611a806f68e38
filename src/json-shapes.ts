// The documents scv prints with `--json`, one zod schema each (json-documents.ts lists them with
// the command that prints each; docs/json/<name>.schema.json is generated from them by `npm run
// docs`, and test/e2e/json-shapes.test.ts runs each command and checks what it printed against that
// file), and the functions that make a document from scv's own values where those differ from it.
// gc's and usage's are beside their reports (home/gc/gc-report.ts, usage-totals.ts).
//
// One rule for every document: a field a shape has is always there. Where there is no value it is
// `null`; a list with nothing in it is `[]`. No field is left out sometimes, and none appears only
// sometimes, so a reader tests `=== null`, never whether a key is there. (scv's files on disk may
// leave fields out — older scvs wrote them so — but what scv prints does not.) An object has no
// fields but its shape's: a new field is added to its schema, and so to the docs.

import * as z from "zod/mini";
import { DEFAULT_ACCOUNT } from "./accounts.js";
import type { ConversationRecord } from "./home/conversations.js";
import type { QuotaSnapshot } from "./home/quota.js";
import { lazy } from "./lazy.js";
import { resultForJson, type SkippedAccount, type TurnResult, type TurnUsage } from "./result.js";
import {
  checkJson,
  conversationWorktreeFields,
  turnWorktreeFields,
  turnWorktreeJson,
} from "./worktree-shapes.js";

const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;
const text = () => z.string();
const maybe = <T extends z.ZodMiniType>(schema: T) => z.nullable(schema);
const count = () => z.int().check(z.nonnegative());

export const tokenCountsShape = lazy(() =>
  z.object({
    input: maybe(z.number()),
    cached: maybe(z.number()),
    cacheWrite: maybe(z.number()),
    output: maybe(z.number()),
    reasoning: maybe(z.number()),
    costUsd: maybe(z.number()),
  }),
);

const skippedAccount = lazy(() =>
  z.object({
    account: text(),
    reason: z.enum(["cooling", "rate-limited", "signed-out"]),
    until: described(maybe(text()), "when a limited account may be tried again (UTC ISO 8601)"),
    error: maybe(text()),
  }),
);

export const turnResultShape = lazy(() =>
  described(
    z.object({
      reply: described(text(), "the agent's final reply; empty when it gave none"),
      status: z.enum(["completed", "failed", "declined", "timeout", "cancelled"]),
      agent: text(),
      conversation: described(maybe(text()), "scv's handle for -c; null when the turn was not recorded"),
      session: described(maybe(text()), "the CLI's own session id; null when it reported none"),
      usage: described(
        maybe(tokenCountsShape()),
        "this turn's tokens as the CLI reported them (input not read from cache, cached, cacheWrite, output, reasoning; costUsd in dollars), each null where it reported none; null when it reported no usage",
      ),
      cost: described(maybe(z.number()), "this turn's cost in dollars; null when the CLI reported none"),
      duration: described(count(), "milliseconds"),
      exitCode: described(z.int(), "scv's exit code for this turn (README: Exit codes)"),
      error: described(maybe(text()), "what went wrong, one line; null on success"),
      hint: described(maybe(text()), "what to do about it, one line; null when there is nothing to do"),
      fallbacks: described(z.array(text()), "after a failure: other agents to try instead"),
      notes: described(z.array(text()), "where scv did less than usual, one line each"),
      mode: described(maybe(text()), "the permission mode the agent reported; null when it reports none"),
      badLines: described(count(), "stdout lines scv could not read"),
      account: described(
        maybe(text()),
        "the account that ran the turn when its target named accounts (default: the plain home); null otherwise",
      ),
      skipped: described(
        maybe(z.array(skippedAccount())),
        "when the target named accounts, each passed over, in order; null otherwise",
      ),
      resetsAt: described(
        maybe(text()),
        "a rate-limited turn (exit 5): when the limit resets; null otherwise",
      ),
      replacedChars: described(
        count(),
        "how many characters of the reply were bytes that are not UTF-8, each U+FFFD in reply (0: none)",
      ),
      ...turnWorktreeFields(),
    }),
    "the result of one turn",
  ),
);
export type TurnResultJson = z.infer<ReturnType<typeof turnResultShape>>;

export const usageJson = (usage: TurnUsage): z.infer<ReturnType<typeof tokenCountsShape>> => ({
  input: usage.input ?? null,
  cached: usage.cached ?? null,
  cacheWrite: usage.cacheWrite ?? null,
  output: usage.output ?? null,
  reasoning: usage.reasoning ?? null,
  costUsd: usage.costUsd ?? null,
});

const skippedJson = (skip: SkippedAccount): z.infer<ReturnType<typeof skippedAccount>> => ({
  account: skip.account,
  reason: skip.reason,
  until: skip.until ?? null,
  error: skip.error ?? null,
});

/** A turn's result as `--json` prints it (JSON holds text: a reply's bytes that are not UTF-8 are
 * U+FFFD there, counted and noted: `resultForJson`). */
export function turnResultJson(turn: TurnResult): TurnResultJson {
  const result = resultForJson(turn);
  return {
    reply: result.reply,
    status: result.status,
    agent: result.agent,
    conversation: result.conversation,
    session: result.session,
    usage: result.usage === null ? null : usageJson(result.usage),
    cost: result.cost,
    duration: result.duration,
    exitCode: result.exitCode,
    error: result.error,
    hint: result.hint,
    fallbacks: result.fallbacks,
    notes: result.notes,
    mode: result.mode,
    badLines: result.badLines,
    account: result.account ?? null,
    skipped: result.skipped === undefined ? null : result.skipped.map(skippedJson),
    resetsAt: result.resetsAt ?? null,
    replacedChars: result.replacedChars ?? 0,
    ...turnWorktreeJson(result),
  };
}

export const launchShape = lazy(() =>
  z.object({
    handle: described(maybe(text()), "the conversation; null for a turn that was never planned"),
    job: described(maybe(text()), "the job to wait for; null when it did not start"),
    agent: text(),
    started: z.boolean(),
    result: described(maybe(turnResultShape()), "why it did not start; null when it started"),
  }),
);
export type LaunchJson = z.infer<ReturnType<typeof launchShape>>;

const approvalShape = lazy(() =>
  z.object({
    version: z.literal(1),
    id: text(),
    agent: text(),
    tool: text(),
    summary: text(),
    answers: z.array(z.enum(["once", "always", "reject"])),
    askedAt: text(),
  }),
);

export const psTurnShape = lazy(() =>
  described(
    z.object({
      kind: z.literal("turn"),
      handle: text(),
      job: text(),
      agent: text(),
      model: maybe(text()),
      pid: described(maybe(z.int()), "the agent's pid; null until it started"),
      scvPid: z.int(),
      startedAt: text(),
      elapsedMs: count(),
      tool: described(maybe(text()), "the tool running now, one redacted line"),
      account: described(text(), "the account whose home it runs in (`default`: the agent's plain home)"),
      tokens: described(maybe(z.number()), "tokens so far, as the CLI last reported them; null before any"),
      state: described(
        z.enum(["running", "needs-approval", "cooling"]),
        "needs-approval: its agent's question waits for an answer; cooling: it waits for a rate limit's reset",
      ),
      question: described(maybe(text()), "the question waiting for an answer, one line"),
      coolingUntil: described(maybe(text()), "the reset a cooling job waits for (UTC ISO 8601)"),
      background: z.boolean(),
      depth: count(),
      cwd: text(),
      prompt: text(),
      approval: described(
        maybe(approvalShape()),
        "the agent's question waiting for an answer (an scv mcp job's)",
      ),
    }),
    "a running turn",
  ),
);
export type PsTurnJson = z.infer<ReturnType<typeof psTurnShape>>;

export const psHostShape = lazy(() =>
  described(
    z.object({
      kind: z.literal("host"),
      handle: text(),
      agent: text(),
      pid: described(maybe(z.int()), "the ACP server's pid; null until it started"),
      scvPid: z.int(),
      startedAt: text(),
      inUse: z.boolean(),
      idleMs: count(),
      endsInMs: described(maybe(count()), "when it ends if no turn comes; null while in use"),
      rssBytes: described(
        maybe(count()),
        "resident memory of the host and its server's process tree; null where it cannot be read",
      ),
    }),
    "a session host keeping a conversation's ACP server warm",
  ),
);
export type PsHostJson = z.infer<ReturnType<typeof psHostShape>>;

export const listingShape = lazy(() =>
  z.object({
    name: text(),
    product: text(),
    offers: text(),
    installed: z.boolean(),
    path: maybe(text()),
    version: maybe(text()),
    resume: z.boolean(),
    structuredOutput: z.boolean(),
    acp: z.boolean(),
    verified: described(text(), 'the CLI version its row was checked against, or "unverified"'),
    checked: described(
      z.enum(["turns", "offline", "none"]),
      "what was checked at that version: whole turns against a loopback mock, only what needs no model (its version, scv's arguments, its signed-out status), or nothing",
    ),
  }),
);
export type AgentListingJson = z.infer<ReturnType<typeof listingShape>>;

const quotaShape = lazy(() =>
  z.object({
    seenAt: text(),
    windows: z.array(
      z.object({
        window: text(),
        status: text(),
        utilization: maybe(z.number()),
        resetsAt: maybe(text()),
      }),
    ),
  }),
);

export const statusFields = () => ({
  agent: text(),
  account: described(text(), "default: the agent's plain home"),
  product: text(),
  installed: z.boolean(),
  path: maybe(text()),
  version: maybe(text()),
  state: z.enum(["signed-in", "signed-out", "unknown"]),
  detail: text(),
  source: described(
    z.enum(["command", "stored", "unchecked", "endpoint"]),
    "how scv knows: the row's status kind, or endpoint: signed in by the key of its base_url",
  ),
  quota: described(maybe(quotaShape()), "the quota windows the CLI last reported; null where none was"),
  coolingUntil: described(
    maybe(text()),
    "until when a ladder skips this account after a limit; null when not cooling",
  ),
});
export const statusRowShape = lazy(() => z.object(statusFields()));
export type StatusRowJson = z.infer<ReturnType<typeof statusRowShape>>;
type StatusRowSource = Omit<StatusRowJson, "quota"> & { readonly quota: QuotaSnapshot | null };

/** A status row as `--json` prints it: a quota window the CLI said less of has nulls. */
export function statusRowJson(row: StatusRowSource): StatusRowJson {
  return {
    ...row,
    quota:
      row.quota === null
        ? null
        : {
            seenAt: row.quota.seenAt,
            windows: row.quota.windows.map((window) => ({
              window: window.window,
              status: window.status,
              utilization: window.utilization ?? null,
              resetsAt: window.resetsAt ?? null,
            })),
          },
  };
}

export const checkShape = lazy(() =>
  z.object({
    agent: text(),
    account: described(text(), "the account checked; default: the agent's plain home"),
    state: z.enum(["signed-in", "signed-out", "unknown"]),
    detail: text(),
    exitCode: z.int(),
    duration: count(),
  }),
);
export type CheckJson = z.infer<ReturnType<typeof checkShape>>;

const conversationFields = () => ({
  handle: text(),
  agent: text(),
  account: described(text(), "whose home holds its session; default: the agent's plain home"),
  sessionId: described(maybe(text()), "the CLI's session; null until it reported one"),
  transport: z.enum(["process", "acp"]),
  cwd: text(),
  model: maybe(text()),
  effort: maybe(text()),
  policy: z.enum(["auto", "default"]),
  createdAt: text(),
  updatedAt: text(),
  turns: count(),
  lastPrompt: maybe(text()),
  usage: described(tokenCountsShape(), "totals over its turns"),
  cumulative: described(maybe(tokenCountsShape()), "the CLI's own running total, for CLIs that keep one"),
  lastStatus: maybe(text()),
  lastExitCode: described(maybe(z.int()), "the last turn's scv exit code; null before scv kept it"),
  duration: described(maybe(z.number()), "milliseconds of its turns, summed; null before scv kept it"),
  takeovers: described(count(), "how often it was taken over in the CLI's own UI (scv attach)"),
  lastTakeoverAt: maybe(text()),
  ...conversationWorktreeFields(),
});
export const conversationShape = lazy(() => z.object(conversationFields()));
export type ConversationJson = z.infer<ReturnType<typeof conversationShape>>;
export type ConversationShowJson = z.infer<ReturnType<typeof conversationShowShape>>;

/** A conversation record as `--json` prints it: a record leaves out what it does not have, and an
 * older scv's lacks what it did not know of (its transport, before ACP, was `process`). A field the
 * record gains is printed too (and fails the shape's test until its schema has it), never dropped. */
export function conversationJson(record: ConversationRecord): ConversationJson {
  return {
    ...record,
    handle: record.handle,
    agent: record.agent,
    account: record.account ?? DEFAULT_ACCOUNT,
    sessionId: record.sessionId ?? null,
    transport: record.transport ?? "process",
    cwd: record.cwd,
    model: record.model ?? null,
    effort: record.effort ?? null,
    policy: record.policy,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    turns: record.turns,
    lastPrompt: record.lastPrompt ?? null,
    usage: usageJson(record.usage),
    cumulative: record.cumulative === undefined ? null : usageJson(record.cumulative),
    lastStatus: record.lastStatus ?? null,
    lastExitCode: record.lastExitCode ?? null,
    duration: record.duration ?? null,
    takeovers: record.takeovers ?? 0,
    lastTakeoverAt: record.lastTakeoverAt ?? null,
    worktree:
      record.worktree === undefined
        ? null
        : {
            ...record.worktree,
            links: record.worktree.links ?? [],
            applied: record.worktree.applied ?? null,
          },
    lastCheck: record.lastCheck === undefined ? null : checkJson(record.lastCheck),
  };
}

export const conversationShowShape = lazy(() =>
  z.object({
    ...conversationFields(),
    next: described(
      z.object({
        agent: text(),
        account: text(),
        cwd: text(),
        model: maybe(text()),
        effort: maybe(text()),
        policy: z.enum(["auto", "default"]),
      }),
      "what the next turn (-c) would run with",
    ),
  }),
);
