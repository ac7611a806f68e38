// Failure classes from error-shaped text: a CLI's error events, its terminal error result, or its
// stderr. Never called on a reply: a model that discusses rate limits has not been rate limited.

import { stripAnsi } from "./ansi.js";
import type { FailureKind, TurnFailure } from "./event-types.js";

const ROOT_REFUSED = /cannot be used with root\/sudo privileges/i;
// Checked before rate limits: OpenAI's insufficient_quota arrives as a 429, and a depleted balance
// needs money, not waiting.
const BILLING =
  /\bbilling\b|billing_error|credit balance|out of credits|insufficient[_ ](?:quota|funds|credits?)|payment required|\b402\b/i;
const RATE_LIMIT =
  /rate[_ -]?limit|too many requests|\b429\b|resource_exhausted|usage[_ ]limit|hit your limit|out of extra usage|\bquota\b/i;
// A model that does not exist or that the account may not use. APIs send it as a 403 or a 404 and CLIs
// pass it on as an auth error or a plain failure; signing in again changes nothing, another model
// does. So it is checked before authentication, and wins over a bare 403. (Not Codex's warning "Model
// metadata for `x` not found", which it prints for every model it has no table entry for.)
// Also a model that was not given where one must be (Copilot CLI's bring-your-own-key mode:
// "BYOK providers require an explicit model").
const MODEL_UNAVAILABLE =
  /\brequires? an? (?:explicit |specific )?model\b|\bno model (?:was )?(?:specified|selected|configured|given)\b|model_not_found|not_found_error[^\n]{0,40}\bmodel\b|\bmodels\/\S+ is not found|\bmodel\b(?! metadata)[^\n]{0,120}?\b(?:does not exist|doesn't exist|may not exist|not found|is not (?:supported|available)|not allowed)|(?:do(?:es)? not|don't|doesn't) have access to (?:the |this )?model|not allowed to use (?:the |this )?model|\b(?:unknown|invalid|unsupported) model\b/i;
const AUTH =
  /\b401\b|\b403\b|unauthori[sz]ed|unauthenticated|authenticat(?:e|ion)|not logged in|\blog ?in\b|\/login|(?:invalid|incorrect|missing) api key|api key not valid|invalid_api_key|no api key|no auth type|auth method|token could not be refreshed|sign in again/i;

/** The kind an error text names, trying the most specific classes first. */
export function classifyErrorText(text: string): FailureKind {
  if (ROOT_REFUSED.test(text)) return "root-refused";
  if (BILLING.test(text)) return "billing";
  if (RATE_LIMIT.test(text)) return "rate-limit";
  if (MODEL_UNAVAILABLE.test(text)) return "model";
  if (AUTH.test(text)) return "auth";
  return "other";
}

/** "model" when `message` says the model does not exist or may not be used. Structured error fields
 * (an HTTP 403, a CLI's "authorization" error type) say less: this is asked before them. */
export function unavailableModel(message: string): "model" | undefined {
  return MODEL_UNAVAILABLE.test(message) ? "model" : undefined;
}

/** The kind an HTTP status names, when it names one. */
export function kindFromStatus(status: number | null | undefined): FailureKind | undefined {
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "billing";
  if (status === 429) return "rate-limit";
  return undefined;
}

/** The kind of a failure a CLI is retrying, from its HTTP status. A refused credential only on a 401:
 * a 403 also refuses a model the account may not use (Claude Code calls both `authentication_failed`,
 * Copilot CLI both "Authentication failed"), which a retry's notice does not tell apart, and ending a
 * turn there would say "sign in" where "pick another model" is the answer. */
export function retryKind(status: number | null | undefined): FailureKind | undefined {
  if (status === 403) return undefined;
  return kindFromStatus(status);
}

/** An epoch time in seconds (or milliseconds) as ISO 8601. */
export function epochToIso(epoch: number): string {
  return new Date(epoch < 1e12 ? epoch * 1000 : epoch).toISOString();
}

/**
 * When a limit resets, if the message says: `…usage limit reached|1755615600` (Claude 2025),
 * `… · resets Feb 7, 11am (Asia/Seoul)` (Claude 2026), `… or try again at 3:28 PM.` (Codex); or
 * how long to wait: `Suggested retry after 1s.` (Gemini CLI), `Please try again in 6m0s.` (OpenAI).
 */
export function resetTimeIn(text: string): string | undefined {
  const epoch = /\|(\d{10,13})\b/.exec(text)?.[1];
  if (epoch !== undefined) return epochToIso(Number(epoch));
  const words =
    /\bresets\s+(?:at\s+)?(.+?)\.?\s*$/im.exec(text) ??
    /\btry again at\s+(.+?)(?:\.\s|\.?\s*$)/im.exec(text) ??
    /\b(?:retry after|try again in)\s+(\d[\dhms.]*(?:\s*(?:seconds?|minutes?|hours?)\b)?)/i.exec(text);
  return words?.[1]?.trim().replace(/\.$/, "") || undefined;
}

/** A failure from an error text, with the reset time when it names one. */
export function failureFromText(message: string, kind = classifyErrorText(message)): TurnFailure {
  const resetsAt = kind === "rate-limit" ? resetTimeIn(message) : undefined;
  return resetsAt === undefined ? { kind, message } : { kind, message, resetsAt };
}

const ERROR_SHAPED =
  /error|fail|fatal|denied|invalid|incorrect|unauthori|forbidden|not logged in|not authenticated|no authentication|cannot|can't|unable|refused|exceeded|limit|quota|no api key|no auth|please (?:run|set|log)/i;
const STACK_FRAME = /^at\s|^\.\.\.\s*\d+ more/;
const PUNCTUATION_ONLY = /^[\s{}[\]()<>,;]*$/;

function stderrLines(stderr: string): string[] {
  return stripAnsi(stderr)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !STACK_FRAME.test(line) && !PUNCTUATION_ONLY.test(line));
}

/** The last line of stderr that reads as an error (not a warning banner or a stack frame). */
export function lastErrorLine(stderr: string): string | undefined {
  return stderrLines(stderr).findLast((line) => ERROR_SHAPED.test(line));
}

/** The last meaningful line of stderr, error-shaped or not. */
export function lastStderrLine(stderr: string): string | undefined {
  return stderrLines(stderr).at(-1);
}

/** A failure read from stderr's error-shaped lines, or undefined when stderr holds none. */
export function failureFromStderr(stderr: string): TurnFailure | undefined {
  const errorLines = stderrLines(stderr).filter((line) => ERROR_SHAPED.test(line));
  const message = errorLines.at(-1);
  if (message === undefined) return undefined;
  const kind = classifyErrorText(message);
  return failureFromText(message, kind === "other" ? classifyErrorText(errorLines.join("\n")) : kind);
}
