// An agent's permission question put to the person at the host (MCP elicitation), where the host
// declared it can ask: the question in one line (the agent, the tool, what it would do) and a form
// whose one field offers the answers the agent does. Only an accepted form naming one of those answers
// allows anything; a declined or dismissed form, or anything else, rejects the request — so nothing is
// approved that the person did not see and choose. A host without elicitation keeps the approve tool.

import { randomBytes } from "node:crypto";
import type { ElicitRequestFormParams, InputResponseView } from "@modelcontextprotocol/server";
import { type ApprovalAnswer, type PendingApproval, questionText } from "../home/approvals.js";

/** How long a form waits for the person before it counts as unanswered (and the request is
 * rejected): long, as the approve tool's question waits for the turn's own time limit. */
export const PERSON_ANSWER_MS = 30 * 60 * 1000;

const ANSWER_TITLES: Record<ApprovalAnswer, string> = {
  once: "Allow once",
  always: "Allow always (for the rest of this agent's session)",
  reject: "Reject",
};

/** The form that asks the person. */
export function approvalForm(job: string, approval: PendingApproval): ElicitRequestFormParams {
  return {
    mode: "form",
    message: `${questionText(approval)} (scv job ${job}). Allow it?`,
    requestedSchema: {
      type: "object",
      properties: {
        answer: {
          type: "string",
          title: `${approval.agent} asks to run ${approval.tool}`,
          description: approval.summary === "" ? approval.tool : approval.summary,
          oneOf: approval.answers.map((answer) => ({ const: answer, title: ANSWER_TITLES[answer] })),
        },
      },
      required: ["answer"],
    },
  };
}

/** The person's answer as the agent is given it. */
export function personAnswer(response: InputResponseView, approval: PendingApproval): ApprovalAnswer {
  if (response.kind !== "elicit" || response.action !== "accept") return "reject";
  const chosen = response.content?.answer;
  return approval.answers.find((answer) => answer === chosen) ?? "reject";
}

/** Whether the host said it can ask its person with a form: in the 2026-07-28 request's own
 * capabilities, or the 2025 era's `initialize`. */
export function hostAsksPerson(requestCapabilities: unknown, initialized: unknown): boolean {
  const capabilities = requestCapabilities ?? initialized;
  if (typeof capabilities !== "object" || capabilities === null) return false;
  const elicitation = (capabilities as { elicitation?: unknown }).elicitation;
  if (typeof elicitation !== "object" || elicitation === null) return false;
  // `{}` is form mode (the 2025-06-18 shape); a host that names modes must name form.
  const modes = Object.keys(elicitation);
  return modes.length === 0 || modes.includes("form");
}

/** A call that raised a question, waiting for the person's answer: what the call was, and what it
 * left to go on with. */
export interface Pending {
  readonly tool: string;
  readonly job: string;
  readonly approval: PendingApproval;
  readonly resume: unknown;
}

/** The calls of this server waiting for their person's answer, each under a token the host echoes
 * back when it makes the call again (the request state): random, so a host cannot name another's. */
export class PendingCalls {
  readonly #pending = new Map<string, Pending>();

  put(pending: Pending): string {
    const token = randomBytes(18).toString("base64url");
    this.#pending.set(token, pending);
    // A question nobody answers is not kept for ever.
    if (this.#pending.size > 256) {
      const oldest = this.#pending.keys().next().value;
      if (oldest !== undefined) this.#pending.delete(oldest);
    }
    return token;
  }

  take(token: string): Pending | undefined {
    const pending = this.#pending.get(token);
    this.#pending.delete(token);
    return pending;
  }
}
