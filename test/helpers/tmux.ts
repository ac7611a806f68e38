// A real terminal for tests: a private tmux server (its socket in the test's world) runs a command
// in a window of its own; the test types with send-keys and reads the screen with capture-pane.

import { execFileSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TMUX = "/usr/bin/tmux";

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

export interface Terminal {
  /** Runs `argv` in `cwd` with exactly `env` (TERM=screen); the window stays after it exits and
   * shows `EXIT=<code>`. */
  start(argv: readonly string[], env: Record<string, string>, cwd: string): void;
  /** What the window shows now, lines joined where tmux wrapped them. */
  screen(): string;
  /** The screen once `pattern` shows on it, or an error with the screen after `withinMs`. */
  waitFor(pattern: RegExp, withinMs?: number): Promise<string>;
  /** Types `text` literally (no Enter). */
  keys(text: string): void;
  /** Types `text`, then Enter. */
  type(text: string): void;
  /** Ends the tmux server and what runs in it. */
  dispose(): void;
}

/** A terminal of `columns` × `rows` whose tmux socket and script live in `dir`. */
export function tmuxTerminal(dir: string, columns = 160, rows = 40): Terminal {
  const socket = join(dir, "tmux.sock");
  const tmux = (...args: string[]) => execFileSync(TMUX, ["-S", socket, ...args], { encoding: "utf8" });
  const screen = () => tmux("capture-pane", "-p", "-J", "-t", "t");
  return {
    start(argv, env, cwd) {
      const script = join(dir, "in-tmux.sh");
      const exports = Object.entries({ ...env, TERM: "screen" })
        .map(([name, value]) => `export ${name}=${quote(value)}`)
        .join("\n");
      writeFileSync(
        script,
        `#!/bin/sh\n${exports}\ncd ${quote(cwd)}\n${argv.map(quote).join(" ")}\necho "EXIT=$?"\nsleep 600\n`,
      );
      chmodSync(script, 0o755);
      tmux(
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        String(columns),
        "-y",
        String(rows),
        script,
      );
    },
    screen,
    async waitFor(pattern, withinMs = 20_000) {
      const deadline = Date.now() + withinMs;
      for (;;) {
        let text: string;
        try {
          text = screen();
        } catch (error) {
          // The server may not be listening yet.
          text = String(error);
        }
        if (pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`never saw ${pattern} on the screen:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    keys(text) {
      tmux("send-keys", "-t", "t", "-l", text);
    },
    type(text) {
      tmux("send-keys", "-t", "t", "-l", text);
      tmux("send-keys", "-t", "t", "Enter");
    },
    dispose() {
      try {
        execFileSync(TMUX, ["-S", socket, "kill-server"], { stdio: "ignore" });
      } catch {
        // No server was started.
      }
    },
  };
}
