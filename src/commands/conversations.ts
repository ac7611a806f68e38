// `scv conversations [list] [--json]`, `show <handle> [--json]`, `rm <handle> [--transcript]`: scv's
// conversation records, and with `--transcript` the agent's own transcript of that session.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { accountLabel, DEFAULT_ACCOUNT, recordedAccount } from "../accounts.js";
import { endSessionHost } from "../acp/session-host/end-host.js";
import { adapter, EXAMPLE_AGENTS } from "../adapters.js";
import { visibleLine } from "../cli/terminal-text.js";
import { formatDuration } from "../duration.js";
import { EXIT, ScvError } from "../errors.js";
import { agentSettings, loadConfig } from "../home/config.js";
import {
  type ConversationRecord,
  conversationsDir,
  HANDLE_PATTERN,
  listConversations,
  lockConversation,
  preview,
  readConversation,
  removeConversation,
} from "../home/conversations.js";
import { findTranscripts, removeTranscripts } from "../home/gc/transcripts.js";
import { readHostRecord } from "../home/host-records.js";
import { agentHome } from "../home/paths.js";
import type { CliIo } from "../io.js";
import { type ConversationShowJson, conversationJson } from "../json-shapes.js";
import { isBusy, settledBusyError } from "../turn/busy.js";
import { continuedDefaults, type TurnDefaults } from "../turn/plan.js";
import { turnRunning } from "../turn/worktree.js";
import type { Worktree } from "../worktrees/record.js";
import { branchTip } from "../worktrees/record-turn.js";
import { removeWorktree } from "../worktrees/remove-worktree.js";
import { formatBytes, renderTable } from "./table.js";

export async function conversationsListCommand(io: CliIo, flags: { json?: boolean } = {}): Promise<number> {
  const { records, damaged } = listConversations(io.env);
  for (const name of damaged) {
    const handle = name.replace(/\.json$/, "");
    io.stderr.write(`scv: skipped damaged record ${name} — remove it with: scv conversations rm ${handle}\n`);
  }
  if (flags.json) {
    io.stdout.write(`${JSON.stringify(records.map(conversationJson), null, 2)}\n`);
    return EXIT.ok;
  }
  if (records.length === 0) {
    io.stderr.write("scv: no conversations yet — start one with: scv delegate <agent> <prompt>\n");
    return EXIT.ok;
  }
  const now = Date.now();
  const rows = records.map((record) => [
    record.handle,
    accountLabel(record.agent, record.account),
    String(record.turns),
    ago(record.updatedAt, now),
    record.cwd,
    record.model ?? "-",
    record.lastPrompt ? preview(record.lastPrompt, 60) : "-",
  ]);
  io.stdout.write(
    renderTable(["HANDLE", "AGENT", "TURNS", "LAST USED", "CWD", "MODEL", "LAST PROMPT"], rows),
  );
  return EXIT.ok;
}

export async function conversationsShowCommand(
  io: CliIo,
  handle: string,
  flags: { json?: boolean } = {},
): Promise<number> {
  const record = readConversation(checkHandle(handle), io.env);
  const next = continuedDefaults(record, agentSettings(loadConfig(io.env).config, record.agent));
  if (flags.json) {
    const nextTurn = {
      agent: record.agent,
      account: record.account ?? DEFAULT_ACCOUNT,
      cwd: record.cwd,
      model: next.model ?? null,
      effort: next.effort ?? null,
      policy: next.policy,
    };
    const shown: ConversationShowJson = { ...conversationJson(record), next: nextTurn };
    io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return EXIT.ok;
  }
  const now = Date.now();
  const lines: [string, string][] = [
    ["handle", record.handle],
    ["agent", record.agent],
    [
      "account",
      `${record.account ?? DEFAULT_ACCOUNT} (its session is in ${agentHome(record.agent, io.env, record.account)})`,
    ],
    ["session", record.sessionId ?? "(none reported yet)"],
    ["cwd", record.cwd],
    ...worktreeLines(record),
    ["model", record.model ?? "(the CLI's default)"],
    ["effort", record.effort ?? "(the CLI's default)"],
    ["policy", `${record.policy} (the first turn's; a later turn asks for its own)`],
    ["turns", String(record.turns)],
    ["created", `${record.createdAt} (${ago(record.createdAt, now)})`],
    ["last used", `${record.updatedAt} (${ago(record.updatedAt, now)})`],
    ["last status", record.lastStatus ?? "-"],
    ["last prompt", record.lastPrompt === undefined ? "-" : preview(record.lastPrompt, 200)],
    ["usage", describeUsage(record.usage)],
  ];
  if (record.cumulative !== undefined) lines.push(["cli total", describeUsage(record.cumulative)]);
  if (record.takeovers !== undefined && record.lastTakeoverAt !== undefined) {
    lines.push([
      "taken over",
      `${record.takeovers} time${record.takeovers === 1 ? "" : "s"} in its own UI (scv attach), last ${record.lastTakeoverAt} (${ago(record.lastTakeoverAt, now)})`,
    ]);
  }
  lines.push(["next turn", describeNext(next)]);
  const width = Math.max(...lines.map(([label]) => label.length));
  // Values an agent wrote (its session id, a prompt) show their control characters, never act on them.
  io.stdout.write(lines.map(([label, value]) => `${label.padEnd(width)}  ${visibleLine(value)}\n`).join(""));
  return EXIT.ok;
}

export async function conversationsRmCommand(
  io: CliIo,
  handle: string,
  flags: { transcript?: boolean } = {},
): Promise<number> {
  checkHandle(handle);
  if (!existsSync(join(conversationsDir(io.env), `${handle}.json`))) {
    throw new ScvError("UNKNOWN_CONVERSATION", `no conversation '${handle}' — run: scv conversations list`);
  }
  // Held while removing, so a turn of this conversation never runs on a record or transcript half gone.
  const release = await lockConversation(handle, io.env, 0).catch(async (error: unknown) => {
    throw isBusy(error) ? await settledBusyError(handle, io.env) : error;
  });
  try {
    // Its warm server, if any, has nothing left to continue.
    const host = readHostRecord(handle, io.env);
    if (host !== undefined) await endSessionHost(host, io.env);
    if (flags.transcript) {
      const code = removeSessionTranscripts(io, readForTranscript(handle, io));
      if (code !== EXIT.ok) return code;
    }
    // Its worktree and branch go with it (what was left uncommitted is saved on the branch first).
    const worktree = readWorktree(handle, io);
    if (worktree !== undefined) await removeItsWorktree(io, handle, worktree);
    removeConversation(handle, io.env);
    io.stderr.write(`scv: removed conversation ${handle}\n`);
    return EXIT.ok;
  } finally {
    await release().catch(() => undefined);
  }
}

/** The worktree a record names; none for a damaged record (rm removes it as it is). */
function readWorktree(handle: string, io: CliIo): Worktree | undefined {
  try {
    return readConversation(handle, io.env).worktree;
  } catch {
    return undefined;
  }
}

/** Removes the conversation's worktree and branch, saying where unmerged work was; throws (the record
 * stays) when git cannot. */
async function removeItsWorktree(io: CliIo, handle: string, worktree: Worktree): Promise<void> {
  const tip = await branchTip(worktree, io.env).catch(() => undefined);
  const outcome = await removeWorktree(worktree, {
    env: io.env,
    ...(worktree.applied === undefined ? {} : { applied: worktree.applied }),
    isRunning: () => turnRunning(handle, io.env),
  });
  const tipNow = outcome.saved ?? tip;
  const unmerged =
    outcome.kind === "removed" && outcome.unmerged && tipNow !== undefined
      ? ` — it held work neither merged nor applied: git branch ${worktree.branch} ${tipNow.slice(0, 12)} brings it back while git keeps the commit`
      : "";
  io.stderr.write(`scv: removed worktree ${worktree.dir} and branch ${worktree.branch}${unmerged}\n`);
}

/** The worktree's lines of `conversations show`. */
function worktreeLines(record: ConversationRecord): [string, string][] {
  const worktree = record.worktree;
  if (worktree === undefined) return [];
  const carried = worktree.carried ? ", with your uncommitted changes carried in" : "";
  const lines: [string, string][] = [
    [
      "worktree",
      `${worktree.dir} — branch ${worktree.branch} from ${worktree.baseRef} (${worktree.forkedFrom.slice(0, 12)})${carried}`,
    ],
  ];
  if (worktree.applied !== undefined)
    lines.push(["applied", `${worktree.applied.slice(0, 12)} (scv apply ${record.handle})`]);
  const check = record.lastCheck;
  if (check !== undefined)
    lines.push(["last check", `${check.status} in ${formatDuration(check.duration)}: ${check.command}`]);
  return lines;
}

/** Removes the transcript files of the record's session; the record stays when one could not go. */
function removeSessionTranscripts(io: CliIo, record: ConversationRecord): number {
  const entry = adapter(record.agent);
  const without = `run without --transcript to remove only the record`;
  if (entry === undefined) {
    throw new ScvError(
      "USAGE",
      `${record.handle} is a conversation of '${record.agent}', an agent this scv does not know — ${without}`,
    );
  }
  if (record.sessionId === undefined) {
    io.stderr.write(`scv: ${record.handle} has no session id recorded, so no transcript to remove\n`);
    return EXIT.ok;
  }
  // The account names the home whose files go: a record on disk naming no usable one is refused.
  const account = recordedAccount(record.handle, record.account);
  const search = findTranscripts(entry, record.sessionId, io.env, account);
  if (search.kind === "unknown") throw new ScvError("USAGE", `${search.reason} — ${without}`);
  const files = search.items.filter((item) => item.kind === "transcript");
  if (search.folder ? search.items.length === 0 : files.length === 0) {
    io.stderr.write(`scv: no transcript of session ${record.sessionId} under ${search.dir}\n`);
    return EXIT.ok;
  }
  const result = removeTranscripts(entry, search.items, io.env, undefined, account);
  if (search.folder) {
    // The session's folder, one line for all its files: a CLI keeps many small ones there.
    if (result.removed.some((item) => item.path === search.dir)) {
      const bytes = result.removed.reduce((sum, item) => sum + item.bytes, 0);
      const count = result.removed.filter((item) => item.kind === "transcript").length;
      io.stderr.write(
        `scv: removed transcript folder ${search.dir} (${count} ${count === 1 ? "file" : "files"}, ${formatBytes(bytes)})\n`,
      );
    }
  } else {
    for (const item of result.removed) {
      if (item.kind === "transcript")
        io.stderr.write(`scv: removed transcript ${item.path} (${formatBytes(item.bytes)})\n`);
    }
  }
  for (const note of result.kept) io.stderr.write(`scv: left ${note.path} — ${note.reason}\n`);
  for (const note of result.failed) {
    io.stderr.write(
      `scv: could not remove ${note.path} (${note.reason}) — the record stays; fix it and run rm again\n`,
    );
  }
  return result.failed.length > 0 ? EXIT.agentFailed : EXIT.ok;
}

/** The record, whose session id names the transcript; a damaged one cannot say which. */
function readForTranscript(handle: string, io: CliIo): ConversationRecord {
  try {
    return readConversation(handle, io.env);
  } catch (error) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `the record of ${handle} is damaged, so its session is unknown — run without --transcript to remove only the record`,
      { cause: error },
    );
  }
}

function checkHandle(handle: string): string {
  if (!HANDLE_PATTERN.test(handle)) {
    throw new ScvError(
      "UNKNOWN_CONVERSATION",
      `'${handle}' is not a conversation handle (like ${EXAMPLE_AGENTS[0]}-k3f9x2) — run: scv conversations list`,
    );
  }
  return handle;
}

/** What `scv delegate -c <handle>` without -m, -e or --policy would use. */
function describeNext(next: TurnDefaults): string {
  const model = `model ${next.model ?? "(the CLI's default)"}`;
  const effort = `effort ${next.effort ?? "(the CLI's default)"}`;
  const policy = `policy ${next.policy}${next.policy === "default" ? " (--policy auto to ask again)" : " (from scv's config)"}`;
  return `${model} · ${effort} · ${policy}`;
}

function describeUsage(usage: ConversationRecord["usage"]): string {
  const parts: string[] = [];
  for (const key of ["input", "cached", "cacheWrite", "output", "reasoning"] as const) {
    const value = usage[key];
    if (value !== undefined) parts.push(`${key} ${value}`);
  }
  if (usage.costUsd !== undefined) parts.push(`cost $${usage.costUsd.toFixed(4)}`);
  return parts.length === 0 ? "(none reported)" : parts.join(" · ");
}

/** `3h ago`, the largest whole unit only: a listing wants a glance, not `3h12m5s`. */
function ago(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "?";
  const elapsed = Math.max(0, now - then);
  if (elapsed < 60_000) return "just now";
  const text = formatDuration(elapsed);
  return `${/^\d+[a-z]+/.exec(text)?.[0] ?? text} ago`;
}
