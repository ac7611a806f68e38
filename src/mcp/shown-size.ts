// How much of a tool result a host shows its model, and what a result costs of it. A host shows one
// of the two forms a result comes in: Claude Code and Codex the structured content as compact JSON
// (Claude Code the text of an error), other hosts the text. Measured with the pinned CLIs against a
// probe server (test/real/mcp-host.test.ts checks the sizes scv answers with): Claude Code 2.1.332
// keeps a result of up to 50 000 characters in the model's context and saves a longer one to a file,
// showing the model a 2 KB preview; with MAX_MCP_OUTPUT_TOKENS below 25 000 it keeps 2 characters a
// token without asking its API to count them. Codex 0.171.0 shows about 48 000 bytes (its
// 10 000-token limit for the models it knows; 12 000 for a model it does not) and cuts the middle out
// of a longer one. So every form of a result is held to 45 000 bytes of UTF-8, which is never fewer
// than its characters.

/** What every form of one result may come to, in UTF-8 bytes. */
export const SHOWN_BYTES = 45_000;

/** The least a result may be given, whatever the host says: room for a part of a reply and its notes. */
const MIN_SHOWN_BYTES = 2_000;

/** The bytes one form of a result may come to: `SHOWN_BYTES`, or less when the host says so — 2 a token
 * of `MAX_MCP_OUTPUT_TOKENS` (Claude Code passes it on to the server), or `SCV_MCP_SHOWN_BYTES`, which
 * `scv mcp install` registers for a host that shows less (a row's `mcpHost.shownBytes`: pi cuts the
 * middle out of text over 20 KiB). */
export function shownLimit(env: NodeJS.ProcessEnv): number {
  const tokens = whole(env.MAX_MCP_OUTPUT_TOKENS);
  const bytes = whole(env.SCV_MCP_SHOWN_BYTES);
  return Math.max(MIN_SHOWN_BYTES, Math.min(SHOWN_BYTES, tokens * 2, bytes));
}

/** A variable's whole number, or no limit when it does not hold one. */
function whole(value: string | undefined): number {
  return /^\d{1,9}$/.test(value ?? "") ? Number(value) : Number.POSITIVE_INFINITY;
}

/** What a result costs of the limit: the larger of its text and its structured content as JSON. */
export function shownBytes(text: string, structured: unknown): number {
  return Math.max(Buffer.byteLength(text), Buffer.byteLength(JSON.stringify(structured)));
}

/** The UTF-8 bytes of the UTF-16 unit at `index` written inside a JSON string (escapes included): the
 * larger of what it costs in the text and in the structured content. A surrogate pair costs 4, its
 * two units 2 each; a lone surrogate is escaped. */
function unitCost(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0x20)
    return code === 0x0a || code === 0x0d || code === 0x09 || code === 0x08 || code === 0x0c ? 2 : 6;
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) {
    const low = text.charCodeAt(index + 1);
    return low >= 0xdc00 && low <= 0xdfff ? 2 : 6;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const high = text.charCodeAt(index - 1);
    return high >= 0xd800 && high <= 0xdbff ? 2 : 6;
  }
  return 3;
}

/** The end of the longest stretch of `text` from `offset` that costs at most `budget` bytes as shown
 * (in either form), never inside a surrogate pair. */
export function shownEnd(text: string, offset: number, budget: number): number {
  let cost = 0;
  let end = offset;
  while (end < text.length) {
    const next = cost + unitCost(text, end);
    if (next > budget) break;
    cost = next;
    end += 1;
  }
  const code = text.charCodeAt(end - 1);
  if (end < text.length && end > offset && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return end;
}
