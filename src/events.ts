// The lines `scv delegate --events` prints on stdout while a turn runs: one JSON object per line,
// the normalized events of every agent in one schema, each with the agent, the conversation and
// the milliseconds since scv started the turn, and last a `result` line wrapping the `--json`
// object. Callers read each line back with `eventLineSchema`.

import * as z from "zod/mini";
import { turnResultJson, turnResultShape } from "./json-shapes.js";
import { lazy } from "./lazy.js";
import type { TurnEvent } from "./parsers/event-types.js";
import { type TurnResult, usageSchema } from "./result.js";

/** What every line carries besides its event. */
const envelope = () => ({
  /** The agent's name, as its row has it. */
  agent: z.string(),
  /** scv's conversation handle of the turn. A first turn is recorded under it only if it
   * completes or its CLI reports a session; the result line says whether it was. */
  conversation: z.optional(z.string()),
  /** Milliseconds since scv started the turn. */
  t: z.int().check(z.nonnegative()),
});

const failureKindSchema = lazy(() =>
  z.enum(["auth", "rate-limit", "billing", "model", "root-refused", "unreachable", "lost-session", "other"]),
);

/** One line per normalized event (src/parsers/event-types.ts `TurnEvent`), then the result. */
export const eventLineSchema = lazy(() =>
  z.discriminatedUnion("type", [
    /** The CLI's session id; repeated when it changes (the last one counts). */
    z.object({ type: z.literal("session"), sessionId: z.string(), ...envelope() }),
    /** The permission mode the agent reported (its row's `modeReport`: a permission mode, a sandbox
     * policy). */
    z.object({ type: z.literal("mode"), mode: z.string(), ...envelope() }),
    /** Assistant text: a whole block, or a piece of one when `delta` is true. */
    z.object({ type: z.literal("text"), text: z.string(), delta: z.optional(z.boolean()), ...envelope() }),
    /** A tool started; `summary` is one redacted line (`$ cmd`, `edit path`, `search: q`). */
    z.object({
      type: z.literal("tool-start"),
      id: z.string(),
      name: z.string(),
      summary: z.string(),
      ...envelope(),
    }),
    z.object({
      type: z.literal("tool-end"),
      id: z.string(),
      name: z.string(),
      ok: z.boolean(),
      ...envelope(),
    }),
    /** Usage so far as the CLI reports it (each replaces the previous one; for some CLIs a running
     * total across resumed turns, of which the result gives this turn's share). */
    z.object({ type: z.literal("usage"), usage: usageSchema(), ...envelope() }),
    /** The CLI will retry (a rate limit, a dropped connection); not the end. `attempt` of
     * `maxAttempts` failed, the next comes after `delayMs`; `status` is the HTTP status and `kind` the
     * failure's kind, where the CLI says. */
    z.object({
      type: z.literal("retry"),
      message: z.string(),
      attempt: z.optional(z.number()),
      maxAttempts: z.optional(z.number()),
      delayMs: z.optional(z.number()),
      status: z.optional(z.number()),
      kind: z.optional(failureKindSchema()),
      ...envelope(),
    }),
    /** An error the CLI reported; `terminal` when it ends the turn. */
    z.object({
      type: z.literal("error"),
      message: z.string(),
      kind: failureKindSchema(),
      terminal: z.boolean(),
      resetsAt: z.optional(z.string()),
      ...envelope(),
    }),
    /** The CLI's own end of the turn; `declined` when the model refused. */
    z.object({
      type: z.literal("turn-end"),
      ok: z.boolean(),
      declined: z.optional(z.boolean()),
      ...envelope(),
    }),
    /** The last line: the `--json` object of the turn. */
    z.object({ type: z.literal("result"), result: turnResultShape(), ...envelope() }),
  ]),
);

export type EventLine = z.infer<ReturnType<typeof eventLineSchema>>;

export interface EventOrigin {
  readonly agent: string;
  readonly conversation?: string;
  /** Milliseconds since the turn started. */
  readonly t: number;
}

/** The line for one event. Typed against the schema, so a new `TurnEvent` variant that the schema
 * lacks fails to compile here. */
export function eventLine(event: TurnEvent, origin: EventOrigin): EventLine {
  return { ...event, ...envelopeOf(origin) };
}

export function resultLine(result: TurnResult, origin: EventOrigin): EventLine {
  return { type: "result", result: turnResultJson(result), ...envelopeOf(origin) };
}

function envelopeOf(origin: EventOrigin): { agent: string; conversation?: string; t: number } {
  const t = Math.max(0, Math.round(origin.t));
  return origin.conversation === undefined
    ? { agent: origin.agent, t }
    : { agent: origin.agent, conversation: origin.conversation, t };
}

/** A line of a job's events file only (turn/event-log.ts), never of `--events`: how many events of a
 * busy stretch the file counted instead of keeping, where they were. */
export const droppedLineSchema = lazy(() =>
  z.object({ type: z.literal("dropped"), count: z.int().check(z.positive()), ...envelope() }),
);

export type DroppedLine = z.infer<ReturnType<typeof droppedLineSchema>>;
