// Synthetic agent output for the parser and busy-turn benchmarks: Claude stream-json and Codex JSONL
// built on the envelopes of the real captures (test/fixtures/{claude,codex}/turn1.stdout), with many
// tool calls, long assistant texts, large tool outputs and multi-byte text — or, for Claude, a turn
// of many short tool calls. Produced on the fly in pipe-sized chunks (lines and characters cut across
// chunk boundaries), never held whole (the busy benchmark writes them to a file for its fake agent).
// Seeded, so the parser run and the ceiling run of one case read the same bytes.
//
// Speed matters (1 GB per case): texts and tool outputs come from a small pool of JSON string
// literals encoded once, and each line is spliced from those bytes and its own ids.

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

/** A text and its JSON string literal (quotes included), encoded once. */
interface Literal {
  readonly text: string;
  readonly json: Buffer;
}

function literal(text: string): Literal {
  return { text, json: Buffer.from(JSON.stringify(text)) };
}

class Material {
  readonly prose: Literal[];
  readonly outputs: Literal[];
  readonly snippets: Literal[];
  /** One sentence each. */
  readonly notes = PROSE.map((sentence) => literal(sentence));
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

  /** A few lines of tool output each, for short tool calls; made on first use, so that the other
   * streams stay as they were. */
  private shortPool: Literal[] | undefined;
  get short(): Literal[] {
    this.shortPool ??= Array.from({ length: POOL_SIZE }, () => literal(this.code(this.int(40, 400))));
    return this.shortPool;
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

/** A line as byte pieces: the texts are encoded once (Literal.json), each line is spliced from them
 * and its own ids, and the pieces are copied straight into the chunks. */
type Line = Buffer[];

/** Fixed JSON fragments, encoded once. (Only constants: ids go through `bytes`.) */
const fragments = new Map<string, Buffer>();
function frag(text: string): Buffer {
  let encoded = fragments.get(text);
  if (encoded === undefined) {
    encoded = Buffer.from(text);
    fragments.set(text, encoded);
  }
  return encoded;
}

const bytes = (text: string) => Buffer.from(text);
/** A string value as JSON bytes. */
const str = (text: string) => Buffer.from(JSON.stringify(text));
const NEWLINE = Buffer.from("\n");

/** JSON of `value` with each `{{name}}` placeholder string (quotes included) replaced by the
 * pieces given for it: a line template serialized once, spliced many times. */
function template(value: Json): (fields: Readonly<Record<string, Buffer | Line>>) => Line {
  const parts = JSON.stringify(value).split(/"\{\{(\w+)\}\}"/);
  const fixed = parts.map((part, i) => (i % 2 === 0 ? frag(part) : undefined));
  return (fields) => {
    const line: Line = [];
    for (let i = 0; i < parts.length; i += 1) {
      const piece = fixed[i] ?? fields[parts[i] as string];
      if (piece === undefined) throw new Error(`no value for {{${parts[i]}}}`);
      if (Array.isArray(piece)) line.push(...piece);
      else line.push(piece);
    }
    line.push(NEWLINE);
    return line;
  };
}

const hole = (name: string) => `{{${name}}}`;

/** A tool call as Claude Code prints it: its input, its result, and what `tool_use_result`
 * repeats of it. */
function claudeTool(m: Material): { name: string; input: Line; output: Literal; result: Line } {
  const output = m.pick(m.outputs);
  const file = `/home/user/work/${m.pick(PATHS)}`;
  const path = str(file);
  switch (m.int(0, 4)) {
    case 0:
      return {
        name: "Read",
        input: [frag('{"file_path":'), path, frag("}")],
        output,
        result: [
          frag('{"type":"text","file":{"filePath":'),
          path,
          frag(',"content":'),
          output.json,
          frag(',"numLines":200,"startLine":1}}'),
        ],
      };
    case 1: {
      const before = m.pick(m.snippets).json;
      const after = m.pick(m.snippets).json;
      return {
        name: "Edit",
        input: [
          frag('{"file_path":'),
          path,
          frag(',"old_string":'),
          before,
          frag(',"new_string":'),
          after,
          frag(',"replace_all":false}'),
        ],
        output: literal(`The file ${file} has been updated.`),
        result: [
          frag('{"filePath":'),
          path,
          frag(',"oldString":'),
          before,
          frag(',"newString":'),
          after,
          frag(',"structuredPatch":[],"userModified":false}'),
        ],
      };
    }
    case 2:
      return {
        name: "Grep",
        input: [frag('{"pattern":"createParser\\\\(","path":"src","output_mode":"content"}')],
        output,
        result: [
          frag('{"mode":"content","numFiles":12,"filenames":[],"content":'),
          output.json,
          frag(',"numLines":80}'),
        ],
      };
    default:
      return {
        name: "Bash",
        input: [frag('{"command":'), str(m.pick(SHELL)), frag(',"description":"Run a command"}')],
        output,
        result: [frag('{"stdout":'), output.json, frag(',"stderr":"","interrupted":false,"isImage":false}')],
      };
  }
}

/** Claude's line templates, from the capture's envelopes, under one session id. */
function claudeTemplates(root: string, m: Material, permissionMode: string | undefined) {
  const fixture = fixtureLines(root, "claude");
  const session = m.uuid();
  const assistant = byType(fixture, "assistant");
  const message = assistant.message as JsonObject;
  const system = byType(fixture, "system");
  const start = Date.parse("2026-12-02T10:22:11.935Z");
  let call = 0;
  const templates = {
    init: [
      bytes(
        JSON.stringify({
          ...system,
          session_id: session,
          ...(permissionMode === undefined ? {} : { permissionMode }),
        }),
      ),
      NEWLINE,
    ],
    assistantLine: template({
      ...assistant,
      message: { ...message, id: hole("id"), content: hole("content") },
      parent_tool_use_id: hole("parent"),
      session_id: session,
      uuid: hole("uuid"),
      timestamp: hole("time"),
      request_id: hole("request"),
    }),
    userLine: template({
      type: "user",
      message: { role: "user", content: hole("content") },
      parent_tool_use_id: hole("parent"),
      session_id: session,
      uuid: hole("uuid"),
      timestamp: hole("time"),
      tool_use_result: hole("result"),
    }),
    resultLine: template({ ...byType(fixture, "result"), session_id: session, result: hole("result") }),
    /** The next model call: its timestamps move on. */
    nextCall() {
      call += 1;
    },
    fields: (id: Buffer, content: Line, parent: Buffer) => ({
      id,
      content,
      parent,
      uuid: str(m.uuid()),
      time: str(new Date(start + call * 1000).toISOString()),
      request: str(`req_${m.hex(24)}`),
    }),
    text: (literal: Literal) => [frag('[{"type":"text","text":'), literal.json, frag("}]")],
    /** A tool_use line and its tool_result line. */
    *toolCall(
      id: Buffer,
      tool: { name: string; input: Line; output: Literal; result: Line },
      parent: Buffer,
    ) {
      const toolId = str(`toolu_${m.hex(24)}`);
      const use = [
        frag('[{"type":"tool_use","id":'),
        toolId,
        frag(`,"name":"${tool.name}","input":`),
        ...tool.input,
        frag("}]"),
      ];
      yield templates.assistantLine(templates.fields(id, use, parent));
      const result = [
        frag('[{"tool_use_id":'),
        toolId,
        frag(',"type":"tool_result","content":'),
        tool.output.json,
        frag(',"is_error":false}]'),
      ];
      yield templates.userLine({ ...templates.fields(id, result, parent), result: tool.result });
    },
    /** The final reply and the result line carrying it. */
    *end(reply: Literal) {
      yield templates.assistantLine(
        templates.fields(str(`msg_${m.hex(24)}`), templates.text(reply), frag("null")),
      );
      yield templates.resultLine({ result: reply.json });
    },
  };
  return templates;
}

/** The lines of a Claude `stream-json` turn: the captured init line, then model calls (thinking,
 * text, tool use as one line per content block, each tool result as a user line), then the
 * captured result line carrying the final text. */
function* claudeLines(
  root: string,
  m: Material,
  budget: number,
  tally: StreamTally,
  options: StreamOptions,
): Generator<Line> {
  const t = claudeTemplates(root, m, options.permissionMode);
  yield t.init;
  while (tally.bytes < budget) {
    t.nextCall();
    const id = str(`msg_${m.hex(24)}`);
    // A subagent's messages (under a Task tool) are not the main agent's reply.
    const parent = m.chance(0.05) ? str(`toolu_${m.hex(24)}`) : frag("null");
    if (m.chance(0.3)) {
      const thinking = [
        frag('[{"type":"thinking","thinking":'),
        m.pick(m.prose).json,
        frag(`,"signature":"${m.signature}"}]`),
      ];
      yield t.assistantLine(t.fields(id, thinking, parent));
    }
    if (m.chance(0.7)) yield t.assistantLine(t.fields(id, t.text(m.pick(m.prose)), parent));
    if (m.chance(0.85)) {
      tally.tools += 1;
      yield* t.toolCall(id, claudeTool(m), parent);
    }
  }
  const reply = m.pick(m.prose);
  tally.reply = reply.text;
  yield* t.end(reply);
}

/** A short tool call: a shell command, a read or a search, and a few lines of output. */
function shortTool(m: Material): { name: string; input: Line; output: Literal; result: Line } {
  const output = m.pick(m.short);
  const path = str(`/home/user/work/${m.pick(PATHS)}`);
  switch (m.int(0, 3)) {
    case 0:
      return {
        name: "Read",
        input: [frag('{"file_path":'), path, frag(',"limit":20}')],
        output,
        result: [
          frag('{"type":"text","file":{"filePath":'),
          path,
          frag(',"content":'),
          output.json,
          frag(',"numLines":4,"startLine":1}}'),
        ],
      };
    case 1:
      return {
        name: "Grep",
        input: [frag('{"pattern":"createParser","path":"src","output_mode":"content"}')],
        output,
        result: [
          frag('{"mode":"content","numFiles":2,"filenames":[],"content":'),
          output.json,
          frag(',"numLines":4}'),
        ],
      };
    default:
      return {
        name: "Bash",
        input: [frag('{"command":'), str(m.pick(SHELL)), frag(',"description":"Run a command"}')],
        output,
        result: [frag('{"stdout":'), output.json, frag(',"stderr":"","interrupted":false,"isImage":false}')],
      };
  }
}

/** A Claude turn of `count` short tool calls, one a model call, a short text now and then: the
 * stream where what scv does per tool, not per byte, sets its speed. */
function* claudeShortLines(
  root: string,
  m: Material,
  count: number,
  tally: StreamTally,
  options: StreamOptions,
): Generator<Line> {
  const t = claudeTemplates(root, m, options.permissionMode);
  yield t.init;
  while (tally.tools < count) {
    t.nextCall();
    const id = str(`msg_${m.hex(24)}`);
    if (m.chance(0.1)) yield t.assistantLine(t.fields(id, t.text(m.pick(m.notes)), frag("null")));
    tally.tools += 1;
    yield* t.toolCall(id, shortTool(m), frag("null"));
  }
  const reply = m.pick(m.prose);
  tally.reply = reply.text;
  yield* t.end(reply);
}

/** The lines of a Codex `exec --json` turn (exec_events.rs): the captured thread and turn start,
 * then reasoning, tool items (started and completed) and agent messages, then the captured
 * `turn.completed` with its usage. */
function* codexLines(root: string, m: Material, budget: number, tally: StreamTally): Generator<Line> {
  const fixture = fixtureLines(root, "codex");
  let counter = 0;
  const item = (type: string, ...body: Buffer[]): Line => [
    frag(`{"type":"${type}","item":{"id":"item_`),
    bytes(String(counter)),
    frag('",'),
    ...body,
    frag("}}\n"),
  ];
  const json = (value: Json): Line => [bytes(JSON.stringify(value)), NEWLINE];
  yield json({ ...byType(fixture, "thread.started"), thread_id: m.uuid() });
  yield json(byType(fixture, "turn.started"));
  while (tally.bytes < budget) {
    if (m.chance(0.6)) {
      counter += 1;
      yield item("item.completed", frag('"type":"reasoning","text":'), m.pick(m.prose).json);
    }
    counter += 1;
    switch (m.int(0, 5)) {
      case 0:
        tally.tools += 1;
        yield item(
          "item.completed",
          frag('"type":"file_change","changes":[{"path":'),
          str(`/home/user/work/${m.pick(PATHS)}`),
          frag(',"kind":"update"}],"status":"completed"'),
        );
        break;
      case 1: {
        const call = frag(
          '"type":"mcp_tool_call","server":"docs","tool":"search","arguments":{"query":"zod"}',
        );
        tally.tools += 1;
        yield item("item.started", call, frag(',"result":null,"error":null,"status":"in_progress"'));
        yield item(
          "item.completed",
          call,
          frag(',"result":{"content":[{"type":"text","text":'),
          m.pick(m.outputs).json,
          frag('}]},"error":null,"status":"completed"'),
        );
        break;
      }
      case 2:
        yield item(
          "item.updated",
          frag('"type":"todo_list","items":[{"text":"Run the tests","completed":false}]'),
        );
        break;
      default: {
        const command = [
          frag('"type":"command_execution","command":'),
          str(`/bin/bash -lc '${m.pick(SHELL)}'`),
        ];
        tally.tools += 1;
        yield item(
          "item.started",
          ...command,
          frag(',"aggregated_output":"","exit_code":null,"status":"in_progress"'),
        );
        yield item(
          "item.completed",
          ...command,
          frag(',"aggregated_output":'),
          m.pick(m.outputs).json,
          frag(',"exit_code":0,"status":"completed"'),
        );
      }
    }
    if (m.chance(0.5)) {
      counter += 1;
      yield item("item.completed", frag('"type":"agent_message","text":'), m.pick(m.prose).json);
    }
  }
  const reply = m.pick(m.prose);
  tally.reply = reply.text;
  counter += 1;
  yield item("item.completed", frag('"type":"agent_message","text":'), reply.json);
  yield json(byType(fixture, "turn.completed"));
}

export interface StreamOptions {
  readonly seed?: number;
  /** Claude only: a turn of this many short tool calls (and `bytes` ignored), not the usual mix. */
  readonly shortTools?: number;
  /** Claude only: the permission mode its init line reports instead of the capture's (scv stops a
   * turn whose reported mode contradicts its policy). */
  readonly permissionMode?: string;
}

/** About `bytes` bytes of one turn's output (a little more: the turn always ends whole), as
 * CHUNK_BYTES buffers. `tally` fills in as the chunks go by. */
export function* generateStream(
  root: string,
  format: StreamFormat,
  bytes: number,
  tally: StreamTally,
  options: StreamOptions = {},
): Generator<Buffer> {
  const material = new Material(seeded(options.seed ?? 1));
  const lines =
    format === "codex"
      ? codexLines(root, material, bytes, tally)
      : options.shortTools !== undefined
        ? claudeShortLines(root, material, options.shortTools, tally, options)
        : claudeLines(root, material, bytes, tally, options);
  let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const line of lines) {
    tally.lines += 1;
    for (const piece of line) {
      tally.bytes += piece.length;
      let offset = 0;
      while (offset < piece.length) {
        const copied = piece.copy(chunk, used, offset);
        used += copied;
        offset += copied;
        if (used === CHUNK_BYTES) {
          yield chunk;
          chunk = Buffer.allocUnsafe(CHUNK_BYTES);
          used = 0;
        }
      }
    }
  }
  if (used > 0) yield chunk.subarray(0, used);
}
