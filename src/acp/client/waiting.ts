// Bounded waits on an ACP agent: a request's answer raced against the agent's exit and a time
// limit, and the small readers of what came back.

import { MessageTooLargeError, RequestError } from "@agentclientprotocol/sdk";
import type { AgentProcess, ProcessExit } from "../../process/run.js";
import { timing } from "../../timing.js";

export type Settled<T> =
  | { readonly kind: "value"; readonly value: T }
  /** The agent answered with a JSON-RPC error. */
  | { readonly kind: "error"; readonly error: unknown }
  /** The agent exited, or the connection closed under the request (then the agent is ended);
   * `cause` says why scv closed it, when it did (a message over the SDK's bound). */
  | { readonly kind: "exit"; readonly cause?: string }
  | { readonly kind: "timeout" };

/** A request's answer, or how waiting for it ended: the agent's exit, or the time limit. */
export async function settle<T>(
  request: Promise<T>,
  process: AgentProcess,
  limitMs?: number,
): Promise<Settled<T>> {
  let timer: NodeJS.Timeout | undefined;
  const racers: Promise<Settled<T>>[] = [
    request.then(
      (value) => ({ kind: "value", value }),
      async (error: unknown): Promise<Settled<T>> => {
        if (error instanceof RequestError) return { kind: "error", error };
        // The connection closed: the agent is exiting, or wrote what the SDK could not read (a
        // message over its size limit) and is ended here once it has had the time to exit.
        const cause = closedCause(error);
        if (!(await finishesWithin(process.done, timing("closedExitGrace")))) process.terminate("cancelled");
        await process.done;
        return cause === undefined ? { kind: "exit" } : { kind: "exit", cause };
      },
    ),
    // The connection closes with the process; what it still had to say arrives first.
    process.done.then(async () => {
      await delay(0);
      return { kind: "exit" };
    }),
  ];
  if (limitMs !== undefined)
    racers.push(
      new Promise((resolve) => {
        timer = setTimeout(() => resolve({ kind: "timeout" }), limitMs);
      }),
    );
  try {
    return await Promise.race(racers);
  } finally {
    clearTimeout(timer);
  }
}

/** Why the connection refused to read on, in words, when the agent's output was the cause: one
 * message over the SDK's bound (32 MiB). Undefined for a connection that closed with the agent. */
function closedCause(error: unknown): string | undefined {
  for (let seen = error, depth = 0; seen instanceof Error && depth < 4; seen = seen.cause, depth += 1) {
    if (seen instanceof MessageTooLargeError || seen.name === "MessageTooLargeError") {
      const bound = (seen as MessageTooLargeError).maxMessageBytes;
      const size = typeof bound === "number" ? ` of ${Math.round(bound / 1024 / 1024)} MiB` : "";
      return `it sent a message longer than the ACP bound${size}`;
    }
  }
  return undefined;
}

export async function stop(process: AgentProcess, reason: "timeout" | "cancelled"): Promise<ProcessExit> {
  process.terminate(reason);
  return process.done;
}

export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function errorText(error: unknown): string {
  const fields = record(error);
  const message = typeof fields.message === "string" ? fields.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 300);
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function finishesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
