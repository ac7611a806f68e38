// The turns running now, as `scv ps` shows them (and `--json` prints them).

import { DEFAULT_ACCOUNT } from "../accounts.js";
import { type PendingApproval, pendingApproval, questionText } from "../home/approvals.js";
import type { Env } from "../home/paths.js";
import type { RunningTurnRecord } from "../home/turn-records.js";
import { listRunning } from "../turn/reap.js";

export interface RunningTurn {
  readonly handle: string;
  /** The turn's own job, for scv wait and scv kill. */
  readonly job: string;
  readonly agent: string;
  /** The account whose home it runs in (`default`: the agent's plain home). */
  readonly account: string;
  readonly model: string | null;
  /** The agent's pid; null until it started. */
  readonly pid: number | null;
  readonly scvPid: number;
  readonly startedAt: string;
  readonly elapsedMs: number;
  /** The tool running now, as one redacted line. */
  readonly tool: string | null;
  /** Tokens so far, as the CLI last reported them; null before it reported any. */
  readonly tokens: number | null;
  /** `needs-approval`: its agent's permission question waits for an answer (`question`);
   * `cooling`: every account is rate limited and it waits for the reset `coolingUntil`. */
  readonly state: "running" | "needs-approval" | "cooling";
  /** The question waiting, one line (`<agent> asks to run execute: $ touch x`). */
  readonly question: string | null;
  readonly coolingUntil: string | null;
  readonly background: boolean;
  readonly depth: number;
  readonly cwd: string;
  readonly prompt: string;
  /** The agent's permission question waiting for its caller's answer (an `scv mcp` job's), if any. */
  readonly approval: PendingApproval | null;
}

/** Every turn whose scv is alive, oldest first. */
export function runningTurns(env: Env, now = Date.now()): RunningTurn[] {
  return listRunning(env).map((record) => runningTurn(record, env, now));
}

/** A running turn's record as listed. */
export function runningTurn(record: RunningTurnRecord, env: Env, now = Date.now()): RunningTurn {
  const approval = record.background ? (pendingApproval(record.tag, env) ?? null) : null;
  const asked =
    approval ?? (record.asking === undefined ? undefined : { agent: record.agent, ...record.asking });
  return {
    handle: record.handle,
    job: record.tag,
    agent: record.agent,
    account: record.account ?? DEFAULT_ACCOUNT,
    model: record.model ?? null,
    pid: record.agentProcess?.pid ?? null,
    scvPid: record.scv.pid,
    startedAt: record.startedAt,
    elapsedMs: Math.max(0, now - Date.parse(record.startedAt)),
    tool: record.tool ?? null,
    tokens: record.tokens ?? null,
    state: asked !== undefined ? "needs-approval" : record.cooling !== undefined ? "cooling" : "running",
    question: asked === undefined ? null : questionText(asked),
    coolingUntil: record.cooling?.until ?? null,
    background: record.background,
    depth: record.depth,
    cwd: record.cwd,
    prompt: record.prompt,
    approval,
  };
}
