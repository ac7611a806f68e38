// `scv ps`: the turns running now, foreground and background, with the account each runs in, its
// tokens so far, its state (running, waiting for a permission's answer, cooling down until a rate
// limit's reset) and the tool it runs; and the session hosts keeping a conversation's ACP server
// warm (src/acp/session-host/), with how long each is idle and the memory it holds. `--watch` (and `scv top`)
// redraws it (ps-watch.ts).

import { liveSessionHosts } from "../acp/session-host/end-host.js";
import { jsonLine } from "../cli/terminal-text.js";
import { formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import type { CliIo } from "../io.js";
import { type RunningTurn, runningTurns } from "../jobs/list.js";
import type { PsHostJson, PsTurnJson } from "../json-shapes.js";
import { residentTreeBytes } from "../os/proc.js";
import { compactCount, formatBytes, renderTable } from "./table.js";

export interface PsOptions {
  readonly json?: boolean;
  readonly watch?: boolean;
  readonly interval?: string;
}

export interface PsSnapshot {
  readonly turns: readonly RunningTurn[];
  readonly hosts: readonly PsHostJson[];
  /** When it was taken (Date.now()). */
  readonly at: number;
}

export function psSnapshot(env: NodeJS.ProcessEnv, now = Date.now()): PsSnapshot {
  const live = liveSessionHosts(env);
  // The host, its ACP server and what that started: what keeping the conversation warm costs.
  const memory = residentTreeBytes(live.map((host) => host.scv.pid));
  const hosts = live.map(
    (host): PsHostJson => ({
      kind: "host",
      handle: host.handle,
      agent: host.agent,
      pid: host.server?.pid ?? null,
      scvPid: host.scv.pid,
      startedAt: host.startedAt,
      inUse: host.inUse,
      idleMs: host.inUse ? 0 : Math.max(0, now - Date.parse(host.usedAt)),
      endsInMs: host.inUse ? null : Math.max(0, Date.parse(host.usedAt) + host.idleMs - now),
      rssBytes: memory.get(host.scv.pid) ?? null,
    }),
  );
  return { turns: runningTurns(env, now), hosts, at: now };
}

/** The table, or undefined when nothing runs. */
export function psTable(snapshot: PsSnapshot): string | undefined {
  const { turns, hosts, at } = snapshot;
  if (turns.length === 0 && hosts.length === 0) return undefined;
  return renderTable(
    // A job begins with its conversation's handle; a host is named by the conversation's.
    ["JOB", "AGENT", "ACCOUNT", "PID", "ELAPSED", "TOKENS", "STATE", "TOOL"],
    [
      ...turns.map((turn) => [
        turn.job,
        turn.agent,
        turn.account,
        turn.pid === null ? "-" : String(turn.pid),
        formatDuration(turn.elapsedMs),
        turn.tokens === null ? "-" : compactCount(turn.tokens),
        stateText(turn, at),
        turn.question ?? turn.tool ?? "",
      ]),
      ...hosts.map((host) => [
        host.handle,
        host.agent,
        "-",
        host.pid === null ? "-" : String(host.pid),
        formatDuration(at - Date.parse(host.startedAt)),
        "-",
        [
          host.inUse ? "session host, in use" : `session host, idle ${formatDuration(host.idleMs)}`,
          ...(host.rssBytes === null ? [] : [formatBytes(host.rssBytes)]),
        ].join(", "),
        "",
      ]),
    ],
  );
}

function stateText(turn: RunningTurn, now: number): string {
  switch (turn.state) {
    case "running":
      return "running";
    case "needs-approval":
      return "needs approval";
    case "cooling": {
      const until = turn.coolingUntil ?? "";
      const left = Date.parse(until) - now;
      return Number.isFinite(left) && left > 0
        ? `cooling until ${until} (${formatDuration(left)})`
        : `cooling until ${until}`;
    }
  }
}

/** `scv ps` (with `--watch`, program.ts runs ps-watch.ts). */
export async function psCommand(io: CliIo, options: PsOptions = {}): Promise<number> {
  const snapshot = psSnapshot(io.env);
  if (options.json) {
    // Each entry says its kind: a turn's fields are not a host's.
    const entries: (PsTurnJson | PsHostJson)[] = [
      ...snapshot.turns.map((turn): PsTurnJson => ({ kind: "turn", ...turn })),
      ...snapshot.hosts,
    ];
    io.stdout.write(`${jsonLine(entries)}\n`);
    return EXIT.ok;
  }
  const table = psTable(snapshot);
  if (table === undefined) io.stderr.write("no running turns\n");
  else io.stdout.write(table);
  return EXIT.ok;
}
