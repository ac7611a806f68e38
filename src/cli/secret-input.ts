// Reading an API key: from a terminal without echo, or from piped stdin — never from an argument,
// where it would land in shell history and in every process listing. What is acceptable as a key
// is home/api-key.ts.
//
// The no-echo prompt is hand-written on raw mode: node's readline has no way to mute its echo short
// of patching its output stream, and a dependency for twenty lines is not worth it.

import type { Readable, Writable } from "node:stream";
import { ScvError } from "../errors.js";
import { trimKeyInput } from "../home/api-key.js";

/** The longest key accepted; real keys are a few hundred characters at most. */
const MAX_KEY_BYTES = 16 * 1024;

/** Reads all of piped stdin (at most 16 KiB) as the key. */
export async function readKeyFromStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_KEY_BYTES) {
      throw new ScvError("USAGE", "stdin holds more than 16 KiB, which is no API key — pipe only the key");
    }
    chunks.push(buffer);
  }
  return trimKeyInput(Buffer.concat(chunks).toString("utf8"));
}

/** A terminal stdin that can be switched to raw mode. */
export interface RawTerminal extends Readable {
  readonly isTTY?: boolean;
  setRawMode(mode: boolean): unknown;
}

export function isRawTerminal(stream: Readable & { isTTY?: boolean }): stream is RawTerminal {
  return stream.isTTY === true && typeof (stream as Partial<RawTerminal>).setRawMode === "function";
}

/** Prompts on `output` and reads one line from the terminal with echo off. Backspace edits, Enter
 * ends, Ctrl-C interrupts (exit 130), Ctrl-D on an empty line ends with an empty key. */
export function promptKeyNoEcho(input: RawTerminal, output: Writable, prompt: string): Promise<string> {
  // Echo goes off before the prompt shows: a key typed the moment the prompt appears must not echo.
  input.setRawMode(true);
  output.write(prompt);
  return new Promise((resolve, reject) => {
    let key = "";
    const finish = (error?: ScvError) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(key);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new ScvError("INTERRUPTED", "interrupted — nothing was stored"));
        if (char === "\u0004") {
          if (key === "") return finish();
          continue;
        }
        if (char === "\u007f" || char === "\b") {
          key = [...key].slice(0, -1).join("");
          continue;
        }
        // Ctrl-U clears the line, as in a shell.
        if (char === "\u0015") {
          key = "";
          continue;
        }
        key += char;
      }
    };
    input.resume();
    input.on("data", onData);
  });
}
