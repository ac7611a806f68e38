// One parser benchmark case, alone in its process so its peak RSS is its own:
//   node node_modules/.cache/scv-bench/parser-case.mjs <root> <claude|codex> <bytes> <scv|ceiling>
// The stream comes from a child process (parser-emit.mjs) through a pipe, chunk by chunk, as an
// agent's stdout reaches a turn; the generator's own memory and time stay in that child. `scv`
// feeds the chunks through the line framer and the format's parser exactly as a turn does
// (src/turn/run-turn.ts); `ceiling` runs a bare JSON.parse-per-line loop over the same bytes.
// Only the time spent consuming chunks is counted, not waiting for them. Prints one JSON line.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TurnEvent } from "../../src/parsers/event-types.js";
import { loadParser } from "../../src/parsers/index.js";
import { createLineFramer } from "../../src/transport/framing.js";
import type { StreamFormat, StreamTally } from "./generate.js";

export type CaseMode = "scv" | "ceiling";

export interface CaseResult {
  readonly format: StreamFormat;
  readonly mode: CaseMode;
  readonly bytes: number;
  readonly lines: number;
  /** Wall time spent consuming chunks. */
  readonly seconds: number;
  /** Peak resident set size of the whole process, in bytes. */
  readonly maxRssBytes: number;
}

interface Consumer {
  push(chunk: Buffer): void;
  /** Throws when the consumer did not see the stream the generator made. */
  end(tally: StreamTally): void;
}

/** Loaded before the clock starts, as a turn loads its parser before its agent runs. */
const PARSERS = { claude: await loadParser("claude-stream-json"), codex: await loadParser("codex-jsonl") };

function scvConsumer(format: StreamFormat): Consumer {
  const parser = PARSERS[format]();
  let toolStarts = 0;
  let toolEnds = 0;
  const onEvent = (event: TurnEvent) => {
    if (event.type === "tool-start") toolStarts += 1;
    else if (event.type === "tool-end") toolEnds += 1;
  };
  const framer = createLineFramer({
    elision: parser.elision,
    onLine: (line) => {
      for (const event of parser.push(line)) onEvent(event);
    },
    onOversized: () => parser.skipped(),
  });
  return {
    push: (chunk) => framer.push(chunk),
    end(tally) {
      framer.end();
      const turn = parser.finish({ exitCode: 0, signal: null, stderrTail: "" });
      const problems = [
        turn.status === "completed" ? "" : `status ${turn.status}`,
        turn.badLines === 0 ? "" : `${turn.badLines} bad lines`,
        turn.reply === tally.reply ? "" : "a different reply",
        toolStarts === tally.tools && toolEnds === tally.tools ? "" : `${toolStarts}/${toolEnds} tool events`,
      ].filter((problem) => problem !== "");
      if (problems.length > 0) throw new Error(`the parser misread the stream: ${problems.join(", ")}`);
    },
  };
}

/** The practical ceiling: cut at LF bytes, decode each line, JSON.parse it, nothing else. */
function ceilingConsumer(): Consumer {
  let rest: Buffer | undefined;
  let lines = 0;
  const parse = (bytes: Buffer) => {
    JSON.parse(bytes.toString("utf8"));
    lines += 1;
  };
  return {
    push(chunk) {
      let start = 0;
      let newline = chunk.indexOf(0x0a, start);
      while (newline !== -1) {
        const line = chunk.subarray(start, newline);
        parse(rest === undefined ? line : Buffer.concat([rest, line]));
        rest = undefined;
        start = newline + 1;
        newline = chunk.indexOf(0x0a, start);
      }
      if (start < chunk.length) {
        const tail = chunk.subarray(start);
        rest = rest === undefined ? Buffer.from(tail) : Buffer.concat([rest, tail]);
      }
    },
    end(tally) {
      if (rest !== undefined) parse(rest);
      if (lines !== tally.lines) throw new Error(`the ceiling loop saw ${lines} of ${tally.lines} lines`);
    },
  };
}

async function main(): Promise<void> {
  const [root, format, bytes, mode] = process.argv.slice(2);
  if (
    root === undefined ||
    (format !== "claude" && format !== "codex") ||
    (mode !== "scv" && mode !== "ceiling")
  ) {
    throw new Error("usage: parser-case.mjs <root> <claude|codex> <bytes> <scv|ceiling>");
  }
  const consumer = mode === "scv" ? scvConsumer(format) : ceilingConsumer();
  let busy = 0n;
  const timed = (work: () => void) => {
    const started = process.hrtime.bigint();
    work();
    busy += process.hrtime.bigint() - started;
  };
  const emitter = join(fileURLToPath(new URL(".", import.meta.url)), "parser-emit.mjs");
  const agent = spawn(process.execPath, [emitter, root, format, bytes ?? "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  agent.stderr.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  agent.stdout.on("data", (chunk: Buffer) => timed(() => consumer.push(chunk)));
  const [code] = (await once(agent, "close")) as [number | null];
  if (code !== 0) throw new Error(`parser-emit.mjs exited with ${code}: ${stderr}`);
  const tally = JSON.parse(stderr) as StreamTally;
  timed(() => consumer.end(tally));
  const result: CaseResult = {
    format,
    mode,
    bytes: tally.bytes,
    lines: tally.lines,
    seconds: Number(busy) / 1e9,
    // Kilobytes on Linux.
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
