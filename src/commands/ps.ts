// `scv ps`: the turns running now, foreground and background, with the tool each is running, and the
// session hosts keeping a conversation's ACP server warm (src/hosts/), with how long each is idle and
// the memory it holds.

import type { CliIo } from "../cli/io.js";
import { jsonLine } from "../cli/terminal-text.js";
import { formatDuration } from "../duration.js";
import { EXIT } from "../errors.js";
import { questionText } from "../home/approvals.js";
import { liveHosts } from "../hosts/end.js";
import { runningTurns } from "../jobs/list.js";
import type { PsHostJson, PsTurnJson } from "../json-shapes.js";
import { residentTreeBytes } from "../os/proc.js";
import { formatBytes, renderTable } from "./table.js";

export async function psCommand(io: CliIo, options: { json?: boolean } = {}): Promise<number> {
  const turns = runningTurns(io.env);
  const now = Date.now();
  const live = liveHosts(io.env);
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
      /** Resident memory of the host and its server's process tree; null where it cannot be read. */
      rssBytes: memory.get(host.scv.pid) ?? null,
    }),
  );
  if (options.json) {
    // Each entry says its kind: a turn's fields are not a host's.
    const entries: (PsTurnJson | PsHostJson)[] = [
      ...turns.map((turn): PsTurnJson => ({ kind: "turn", ...turn })),
      ...hosts,
    ];
    io.stdout.write(`${jsonLine(entries)}\n`);
    return EXIT.ok;
  }
  if (turns.length === 0 && hosts.length === 0) {
    io.stderr.write("no running turns\n");
    return EXIT.ok;
  }
  io.stdout.write(
    renderTable(
      // A job begins with its conversation's handle; a host is named by the conversation's.
      ["JOB", "AGENT", "PID", "ELAPSED", "TOOL"],
      [
        ...turns.map((turn) => [
          turn.job,
          turn.agent,
          turn.pid === null ? "-" : String(turn.pid),
          formatDuration(turn.elapsedMs),
          turn.approval === null ? (turn.tool ?? "") : `needs approval: ${questionText(turn.approval)}`,
        ]),
        ...hosts.map((host) => [
          host.handle,
          host.agent,
          host.pid === null ? "-" : String(host.pid),
          formatDuration(now - Date.parse(host.startedAt)),
          [
            host.inUse ? "session host, in use" : `session host, idle ${formatDuration(host.idleMs)}`,
            ...(host.rssBytes === null ? [] : [formatBytes(host.rssBytes)]),
          ].join(", "),
        ]),
      ],
    ),
  );
  return EXIT.ok;
}
