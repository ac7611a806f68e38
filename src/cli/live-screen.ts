// A screen redrawn in place on a terminal (`scv ps --watch`): the terminal's alternate screen with
// the cursor hidden, the keys read one at a time (q or Ctrl-C quits), a frame drawn every interval and
// when the window changes size; the terminal given back as it was however it ends (a key, a signal,
// an error, scv's exit).

import type { CliIo } from "../io.js";
import { cleanUpAtExit } from "../process/lifecycle.js";
import { clip } from "./progress.js";

/** The alternate screen, the cursor hidden; and back. */
const ENTER = "\x1b[?1049h\x1b[?25l";
const LEAVE = "\x1b[?25h\x1b[?1049l";
/** Home, then each line erased to its end; below the last one, the rest of the screen erased. */
const HOME = "\x1b[H";
const ERASE_LINE = "\x1b[K";
const ERASE_BELOW = "\x1b[J";
/** The keys that quit: q, Q, Ctrl-C (raw mode reads it as a key, not a signal). */
const QUIT_KEYS = new Set(["q", "Q", "\x03"]);

type Terminal = NodeJS.WriteStream & { columns?: number; rows?: number };
type Keyboard = NodeJS.ReadStream & { setRawMode?: (raw: boolean) => unknown };

export interface LiveScreenOptions {
  readonly intervalMs: number;
  /** Aborted by a signal or a closed terminal: the screen ends too. */
  readonly signal: AbortSignal;
  /** The screen's lines for a window of `columns` × `rows`. */
  readonly frame: (columns: number, rows: number) => string[];
}

/** Shows `frame` on the terminal until a quit key or the signal; resolves once the terminal is back
 * as it was. */
export async function liveScreen(io: CliIo, options: LiveScreenOptions): Promise<void> {
  const out = io.stdout as Terminal;
  const keys = io.stdin as Keyboard;
  const raw = keys.isTTY === true && typeof keys.setRawMode === "function";
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (raw) {
      keys.setRawMode?.(false);
      keys.pause();
    }
    out.write(LEAVE);
  };
  const forget = cleanUpAtExit(restore);
  out.write(ENTER);
  try {
    await new Promise<void>((resolve) => {
      const draw = () => {
        const columns = out.columns || 80;
        const rows = out.rows || 24;
        // Raw mode ends newline translation: each line ends in CR LF itself. The last row stays
        // empty, so that nothing scrolls.
        const lines = options.frame(columns, rows).slice(0, Math.max(1, rows - 1));
        out.write(
          `${HOME}${lines.map((line) => `${clip(line, columns)}${ERASE_LINE}`).join("\r\n")}\r\n${ERASE_BELOW}`,
        );
      };
      const onKey = (chunk: Buffer | string) => {
        if ([...chunk.toString()].some((key) => QUIT_KEYS.has(key))) quit();
      };
      const timer = setInterval(draw, options.intervalMs);
      const quit = () => {
        clearInterval(timer);
        out.off("resize", draw);
        keys.off("data", onKey);
        options.signal.removeEventListener("abort", quit);
        resolve();
      };
      if (raw) {
        keys.setRawMode?.(true);
        keys.on("data", onKey);
        keys.resume();
      }
      out.on("resize", draw);
      options.signal.addEventListener("abort", quit, { once: true });
      if (options.signal.aborted) quit();
      else draw();
    });
  } finally {
    restore();
    forget();
  }
}
