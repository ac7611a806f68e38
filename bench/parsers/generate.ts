// Synthetic agent output for the parser benchmark: Claude stream-json and Codex JSONL built on the
// envelopes of the real captures (test/fixtures/{claude,codex}/turn1.stdout), with many tool calls,
// long assistant texts, large tool outputs and multi-byte text. Produced on the fly in pipe-sized
// chunks (lines and characters cut across chunk boundaries), never held whole or written anywhere.
// Seeded, so the parser run and the ceiling run of one case read the same bytes.
//
// Speed matters (1 GB per case): texts and tool outputs come from a small pool of pre-encoded JSON
// string literals, and each line is spliced from them and its own ids, never re-serialized.

import { readFileSync } from "node:fs";
import { join } from "node:path";

export type StreamFormat = "claude" | "codex";

/** What a stream holds, to check that the parser saw all of it. */
export interface StreamTally {
  lines: number;
  bytes: number;
  tools: number;
  /** The reply the parser must conclude. */
  reply: string;
}

/** Linux pipes hand a reader at most 64 KiB at a time. */
export const CHUNK_BYTES = 64 * 1024;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const PROSE = [
  "I'll start by reading the framer and the parser to see where the time goes.",
  "The test suite passes locally; the failure only shows up when stdout arrives in small chunks.",
  "La réponse contient des caractères accentués : é, è, à, ç, œ — et des « guillemets » français.",
  "한국어 텍스트도 섞여 있습니다: 파서가 여러 바이트 문자를 올바르게 처리하는지 확인합니다.",
  "日本語の文章も含まれています。チャンクの境界で文字が分割されても正しく復元されるべきです。",
  "Emoji and symbols: ✅ done, ⚠️ warning, 🚀 shipped, → arrows, ∑ math, “curly quotes”.",
  "Code in prose: `createLineFramer({ onLine, onOversized })` splits on \\n only and strips one \\r.",
  "Перевіряємо, що довгі повідомлення з кирилицею проходять через парсер без втрат.",
  "Next I'll run the build, then the unit tests, and compare the output with the fixture.",
  "中文内容：这个函数在每一行上调用 JSON.parse，然后把事件交给状态机。",
  'A quote "inside" a string, a backslash \\ and a tab\tkeep the JSON escaper busy.',
  "Summary:\n\n- framing is LF-only\n- one trailing CR is stripped\n- oversized lines are counted\n",
];

const CODE = [
  "src/parsers/claude-shaped.ts:{n}:  const events: TurnEvent[] = [];",
  "src/transport/framing.ts:{n}:        const newline = chunk.indexOf(LF, start);",
  "  ✓ test/framing.test.ts > splits multi-byte characters across chunks ({n} ms)",
  "\u001b[32m✓\u001b[39m parses a result line with \u001b[1mis_error\u001b[22m false ({n} ms)",
  "export function summarizeTool(name: string, input: unknown): string { // line {n}",
  "-rw-r--r--  1 user user  {n} Dec  2 11:04 package-lock.json",
  "\tat Object.<anonymous> (/home/user/work/src/cli/main.ts:{n}:11)",
  "diff --git a/src/parsers/wire.ts b/src/parsers/wire.ts\n@@ -{n},7 +{n},8 @@",
  "warning: 'λ' and '→' in a comment on line {n} — \"quoted\" \\ backslashed",
];

const SHELL = ["npm test", "rg -n 'createParser' src", "ls -la", "git diff --stat", "npx tsc --noEmit"];
const PATHS = ["src/parsers/json-lines.ts", "src/transport/turn.ts", "docs/benchmarks.md", "README.md"];
const POOL_SIZE = 48;

/** mulberry32: small, fast, deterministic. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A JSON string literal, quotes included, with the text it stands for. */
interface Literal {
  readonly text: string;
  readonly json: string;
}

function literal(text: string): Literal {
  return { text, json: JSON.stringify(text) };
}

class Material {
  readonly prose: Literal[];
  readonly outputs: Literal[];
  readonly snippets: Literal[];
  /** Thinking blocks carry an opaque base64 signature. */
  readonly signature: string;
  private readonly prefix: string;
  private serial = 0;

  constructor(private readonly random: () => number) {
    this.prefix = Math.floor(random() * 0x100000000).toString(16);
    // Heavy-tailed sizes: mostly a few KB, sometimes tens of KB.
    this.prose = Array.from({ length: POOL_SIZE }, () =>
      literal(this.text(PROSE, this.size(1_500, 20_000), this.chance(0.3) ? "\n\n" : " ")),
    );
    this.outputs = Array.from({ length: POOL_SIZE }, () => literal(this.code(this.size(4_000, 60_000))));
    this.signature = Buffer.from(this.text(PROSE, 250)).toString("base64");
    this.snippets = Array.from({ length: POOL_SIZE }, () => literal(this.code(this.int(200, 900))));
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  size(small: number, large: number): number {
    return this.chance(0.85) ? this.int(small / 4, small) : this.int(small, large);
  }

  text(sentences: readonly string[], chars: number, separator = " "): string {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const sentence = this.pick(sentences);
      parts.push(sentence);
      length += sentence.length + 1;
    }
    return parts.join(separator);
  }

  /** Tool output: source lines, test reports with colour escapes, listings, stack traces. */
  code(chars: number): string {
    return `${this.text(CODE, chars, "\n").replace(/\{n\}/g, () => String(this.int(1, 9999)))}\n`;
  }

  /** Ids need only be distinct and well formed: a counter under a random prefix is enough. */
  hex(length: number): string {
    this.serial += 1;
    return (this.prefix + this.serial.toString(16)).padStart(length, "0").slice(-length);
  }

  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }
}

function fixtureLines(root: string, cli: StreamFormat): JsonObject[] {
  const text = readFileSync(join(root, "test", "fixtures", cli, "turn1.stdout"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as JsonObject);
}

function byType(lines: readonly JsonObject[], type: string): JsonObject {
  const found = lines.find((line) => line.type === type);
  if (found === undefined) throw new Error(`the fixture has no ${type} line`);
  return found;
}

/** JSON text of `value` with each `{{name}}` placeholder string (quotes included) replaced by raw
 * JSON: a line template serialized once, spliced many times. */
function template(value: Json): (fields: Readonly<Record<string, string>>) => string {
  const parts = JSON.stringify(value).split(/"\{\{(\w+)\}\}"/);
  return (fields) => {
    let out = "";
    for (let i = 0; i < parts.length; i += 1) out += i % 2 === 0 ? parts[i] : fields[parts[i] as string];
    return `${out}\n`;
  };
}

const hole = (name: string) => `{{${name}}}`;
const str = (text: string) => JSON.stringify(text);

/** A tool call as Claude Code prints it: its input, its result, and what `tool_use_result`
 * repeats of it. */
function claudeTool(m: Material): { name: string; input: string; output: Literal; result: string } {
  const output = m.pick(m.outputs);
  const path = str(`/home/user/work/${m.pick(PATHS)}`);
  switch (m.int(0, 4)) {
    case 0:
      return {
        name: "Read",
        input: `{"file_path":${path}}`,
        output,
        result: `{"type":"text","file":{"filePath":${path},"content":${output.json},"numLines":200,"startLine":1}}`,
      };
    case 1: {
      const before = m.pick(m.snippets).json;
      const after = m.pick(m.snippets).json;
      return {
        name: "Edit",
        input: `{"file_path":${path},"old_string":${before},"new_string":${after},"replace_all":false}`,
        output: literal(`The file ${path} has been updated.`),
        result: `{"filePath":${path},"oldString":${before},"newString":${after},"structuredPatch":[],"userModified":false}`,
      };
    }
    case 2:
      return {
        name: "Grep",
        input: '{"pattern":"createParser\\\\(","path":"src","output_mode":"content"}',
        output,
        result: `{"mode":"content","numFiles":12,"filenames":[],"content":${output.json},"numLines":80}`,
      };
    default:
      return {
        name: "Bash",
        input: `{"command":${str(m.pick(SHELL))},"description":"Run a command"}`,
        output,
        result: `{"stdout":${output.json},"stderr":"","interrupted":false,"isImage":false}`,
      };
  }
}

/** The lines of a Claude `stream-json` turn: the captured init line, then model calls (thinking,
 * text, tool use as one line per content block, each tool result as a user line), then the
 * captured result line carrying the final text. */
function* claudeLines(root: string, m: Material, budget: number, tally: StreamTally): Generator<string> {
  const fixture = fixtureLines(root, "claude");
  const session = m.uuid();
  const assistant = byType(fixture, "assistant");
  const message = assistant.message as JsonObject;
  const assistantLine = template({
    ...assistant,
    message: { ...message, id: hole("id"), content: hole("content") },
    parent_tool_use_id: hole("parent"),
    session_id: session,
    uuid: hole("uuid"),
    timestamp: hole("time"),
    request_id: hole("request"),
  });
  const userLine = template({
    type: "user",
    message: { role: "user", content: hole("content") },
    parent_tool_use_id: hole("parent"),
    session_id: session,
    uuid: hole("uuid"),
    timestamp: hole("time"),
    tool_use_result: hole("result"),
  });
  const resultLine = template({ ...byType(fixture, "result"), session_id: session, result: hole("result") });
  const start = Date.parse("2026-12-02T10:22:11.935Z");
  let call = 0;
  const fields = (id: string, content: string, parent: string) => ({
    id: str(id),
    content,
    parent,
    uuid: str(m.uuid()),
    time: str(new Date(start + call * 1000).toISOString()),
    request: str(`req_${m.hex(24)}`),
  });

  yield `${JSON.stringify({ ...byType(fixture, "system"), session_id: session })}\n`;
  while (tally.bytes < budget) {
    call += 1;
    const id = `msg_${m.hex(24)}`;
    // A subagent's messages (under a Task tool) are not the main agent's reply.
    const parent = m.chance(0.05) ? str(`toolu_${m.hex(24)}`) : "null";
    if (m.chance(0.3)) {
      const thinking = `[{"type":"thinking","thinking":${m.pick(m.prose).json},"signature":"${m.signature}"}]`;
      yield assistantLine(fields(id, thinking, parent));
    }
    if (m.chance(0.7))
      yield assistantLine(fields(id, `[{"type":"text","text":${m.pick(m.prose).json}}]`, parent));
    if (m.chance(0.85)) {
      const toolId = str(`toolu_${m.hex(24)}`);
      const tool = claudeTool(m);
      const use = `[{"type":"tool_use","id":${toolId},"name":"${tool.name}","input":${tool.input}}]`;
      yield assistantLine(fields(id, use, parent));
      tally.tools += 1;
      yield userLine({
        ...fields(
          id,
          `[{"tool_use_id":${toolId},"type":"tool_result","content":${tool.output.json},"is_error":false}]`,
          parent,
        ),
        result: tool.result,
      });
    }
  }
  const reply = m.pick(m.prose);
  tally.reply = reply.text;
  yield assistantLine(fields(`msg_${m.hex(24)}`, `[{"type":"text","text":${reply.json}}]`, "null"));
  yield resultLine({ result: reply.json });
}

/** The lines of a Codex `exec --json` turn (exec_events.rs): the captured thread and turn start,
 * then reasoning, tool items (started and completed) and agent messages, then the captured
 * `turn.completed` with its usage. */
function* codexLines(root: string, m: Material, budget: number, tally: StreamTally): Generator<string> {
  const fixture = fixtureLines(root, "codex");
  let counter = 0;
  const item = (type: string, body: string) => `{"type":"${type}","item":{"id":"item_${counter}",${body}}}\n`;
  const path = () => str(`/home/user/work/${m.pick(PATHS)}`);
  yield `${JSON.stringify({ ...byType(fixture, "thread.started"), thread_id: m.uuid() })}\n`;
  yield `${JSON.stringify(byType(fixture, "turn.started"))}\n`;
  while (tally.bytes < budget) {
    if (m.chance(0.6)) {
      counter += 1;
      yield item("item.completed", `"type":"reasoning","text":${m.pick(m.prose).json}`);
    }
    counter += 1;
    switch (m.int(0, 5)) {
      case 0:
        tally.tools += 1;
        yield item(
          "item.completed",
          `"type":"file_change","changes":[{"path":${path()},"kind":"update"}],"status":"completed"`,
        );
        break;
      case 1: {
        const call = `"type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"zod"}`;
        tally.tools += 1;
        yield item("item.started", `${call},"result":null,"error":null,"status":"in_progress"`);
        const content = `[{"type":"text","text":${m.pick(m.outputs).json}}]`;
        yield item(
          "item.completed",
          `${call},"result":{"content":${content}},"error":null,"status":"completed"`,
        );
        break;
      }
      case 2:
        yield item("item.updated", `"type":"todo_list","items":[{"text":"Run the tests","completed":false}]`);
        break;
      default: {
        const command = `"type":"command_execution","command":${str(`/bin/bash -lc '${m.pick(SHELL)}'`)}`;
        tally.tools += 1;
        yield item(
          "item.started",
          `${command},"aggregated_output":"","exit_code":null,"status":"in_progress"`,
        );
        const output = m.pick(m.outputs).json;
        yield item(
          "item.completed",
          `${command},"aggregated_output":${output},"exit_code":0,"status":"completed"`,
        );
      }
    }
    if (m.chance(0.5)) {
      counter += 1;
      yield item("item.completed", `"type":"agent_message","text":${m.pick(m.prose).json}`);
    }
  }
  const reply = m.pick(m.prose);
  tally.reply = reply.text;
  counter += 1;
  yield item("item.completed", `"type":"agent_message","text":${reply.json}`);
  yield `${JSON.stringify(byType(fixture, "turn.completed"))}\n`;
}

/** About `bytes` bytes of one turn's output (a little more: the turn always ends whole), as
 * CHUNK_BYTES buffers. `tally` fills in as the chunks go by. */
export function* generateStream(
  root: string,
  format: StreamFormat,
  bytes: number,
  tally: StreamTally,
  seed = 1,
): Generator<Buffer> {
  const material = new Material(seeded(seed));
  const lines =
    format === "claude"
      ? claudeLines(root, material, bytes, tally)
      : codexLines(root, material, bytes, tally);
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const line of lines) {
    const encoded = Buffer.from(line);
    tally.lines += 1;
    tally.bytes += encoded.length;
    let offset = 0;
    while (offset < encoded.length) {
      const copied = encoded.copy(chunk, used, offset);
      used += copied;
      offset += copied;
      if (used === CHUNK_BYTES) {
        yield chunk;
        chunk = Buffer.allocUnsafe(CHUNK_BYTES);
        used = 0;
      }
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}
