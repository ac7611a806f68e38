// Before `session/load` on a server that destroys a session loaded within the UTC minute the session
// was saved in (the row's `acp.loadAfterMinute`; such a server begins a file for the session
// under the current minute, whose opening lines set the history to none, and in that minute it is the
// session's own file): how long to wait for the next minute, from the minute in the names of the
// session's files. Only names are read; nothing below the agent home is followed through a link.

import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import type { AcpLaunch } from "../adapters.js";
import { formatDuration, sleep } from "../duration.js";
import type { TurnContext, TurnPlan } from "./turn-types.js";

type LoadAfterMinute = NonNullable<AcpLaunch["loadAfterMinute"]>;

/** How deep below the rule's folder the session files lie (`<project>/chats/<file>`). */
const MAX_DEPTH = 3;
/** Entries read at most: the wait is a courtesy, never a scan of a huge tree. */
const MAX_ENTRIES = 20_000;
/** Past the minute's end: the server names its file by its own reading of the same clock. */
const MARGIN_MS = 250;

/** Waits, where the row says, until `plan`'s session can be loaded, saying so as it starts; returns
 * the result's note when it waited. */
export async function untilLoadable(plan: TurnPlan, context: TurnContext): Promise<string | undefined> {
  const rule = plan.entry.acp?.loadAfterMinute;
  if (rule === undefined || plan.session?.kind !== "continue") return undefined;
  const now = (context.now?.() ?? new Date()).getTime();
  const wait = loadWaitMs(rule, plan.home, plan.session.id, now);
  if (wait === 0) return undefined;
  const why = `${plan.entry.product} loses a session loaded within the minute it was saved in`;
  context.onNotice?.(`${plan.handle} waits ${formatDuration(wait)} for the next minute: ${why}`);
  await (context.sleep ?? sleep)(wait, context.signal);
  return `scv waited ${formatDuration(wait)} before loading the session: ${why}`;
}

/** Milliseconds to wait before loading `sessionId` at `now`; 0 when its first file was made in an
 * earlier minute, or none is found. */
export function loadWaitMs(rule: LoadAfterMinute, home: string, sessionId: string, now: number): number {
  const made = firstMinute(rule, home, sessionId);
  if (made === undefined) return 0;
  const next = made + 60_000;
  return now < next ? next - now + MARGIN_MS : 0;
}

/** The earliest minute (epoch ms) in the names of `sessionId`'s files. */
function firstMinute(rule: LoadAfterMinute, home: string, sessionId: string): number | undefined {
  let earliest: number | undefined;
  let budget = MAX_ENTRIES;
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (--budget < 0) return;
      // A Dirent says what the entry itself is: a link is neither a folder nor a file here.
      if (entry.isDirectory() && depth < MAX_DEPTH) visit(join(dir, entry.name), depth + 1);
      if (!entry.isFile()) continue;
      const minute = minuteOf(rule.name.exec(entry.name)?.groups, sessionId);
      if (minute !== undefined && (earliest === undefined || minute < earliest)) earliest = minute;
    }
  };
  visit(join(home, rule.dir), 0);
  return earliest;
}

/** The minute a name's groups give, when they name the start of `sessionId`. */
function minuteOf(groups: Record<string, string> | undefined, sessionId: string): number | undefined {
  const start = groups?.session;
  const stamp = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})$/.exec(groups?.minute ?? "");
  if (start === undefined || start === "" || !sessionId.startsWith(start) || stamp === null) return undefined;
  const [year, month, day, hour, minute] = stamp.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const at = Date.UTC(year, month - 1, day, hour, minute);
  return Number.isNaN(at) ? undefined : at;
}
