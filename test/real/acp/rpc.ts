// A raw JSON-RPC client for the ACP captures: it writes and reads newline-delimited JSON on a real
// CLI's stdin/stdout and keeps every byte in both directions with its time, so that a capture is
// exactly what crossed the pipe. No SDK here on purpose: what the SDK would reject or reshape is
// what the captures must show.
import { type ChildProcess, spawn } from "node:child_process";

export type Json = Record<string, unknown>;

export interface Timed {
  /** `in`: client → agent (its stdin); `out`: agent → client (its stdout); `err`: its stderr. */
  readonly dir: "in" | "out" | "err";
  /** Milliseconds since the process was spawned. */
  readonly t: number;
  readonly text: string;
}

export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export type Answer = { result: unknown } | { error: RpcError };

/** What the agent asked of the client; the answer goes back on the same id. */
export type RequestHandler = (method: string, params: Json) => Answer | Promise<Answer>;

export class RawAcp {
  readonly child: ChildProcess;
  readonly started = Date.now();
  readonly timeline: Timed[] = [];
  readonly notifications: { t: number; method: string; params: Json }[] = [];
  private nextId = 0;
  private pending = new Map<number, { resolve: (answer: Answer) => void }>();
  private buffer = "";
  exit: Promise<{ code: number | null; signal: string | null }>;
  onRequest: RequestHandler = (method) => ({
    error: { code: -32601, message: `capture client does not implement ${method}` },
  });

  constructor(argv: readonly string[], options: { cwd: string; env: Record<string, string> }) {
    const [command, ...args] = argv;
    if (command === undefined) throw new Error("empty argv");
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    this.exit = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => resolve({ code, signal }));
      this.child.once("error", () => resolve({ code: null, signal: null }));
    });
    this.child.stdin?.on("error", () => {});
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => this.read(chunk));
    this.child.stderr
      ?.setEncoding("utf8")
      .on("data", (chunk: string) => this.timeline.push({ dir: "err", t: this.now(), text: chunk }));
  }

  now(): number {
    return Date.now() - this.started;
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    for (let index = this.buffer.indexOf("\n"); index >= 0; index = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, index + 1);
      this.buffer = this.buffer.slice(index + 1);
      this.timeline.push({ dir: "out", t: this.now(), text: line });
      this.dispatch(line);
    }
  }

  private dispatch(line: string): void {
    let message: Json;
    try {
      message = JSON.parse(line) as Json;
    } catch {
      return;
    }
    const id = message.id;
    if (typeof message.method === "string") {
      const params = (message.params ?? {}) as Json;
      if (id === undefined || id === null) {
        this.notifications.push({ t: this.now(), method: message.method, params });
        return;
      }
      void Promise.resolve(this.onRequest(message.method, params)).then((answer) =>
        this.write({ jsonrpc: "2.0", id, ...answer }),
      );
      return;
    }
    if (typeof id === "number") {
      const waiter = this.pending.get(id);
      this.pending.delete(id);
      waiter?.resolve("error" in message ? { error: message.error as RpcError } : { result: message.result });
    }
  }

  write(message: Json): void {
    const text = `${JSON.stringify(message)}\n`;
    this.timeline.push({ dir: "in", t: this.now(), text });
    this.child.stdin?.write(text);
  }

  /** Sends a request; resolves with its answer, or `{error: timeout}` after `timeoutMs`. */
  request(method: string, params: Json, timeoutMs = 120_000): Promise<Answer & { ms: number }> {
    const id = this.nextId++;
    const sent = Date.now();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({
          error: { code: 0, message: `capture: no answer to ${method} in ${timeoutMs} ms` },
          ms: timeoutMs,
        });
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve({ ...answer, ms: Date.now() - sent });
        },
      });
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method: string, params: Json): void {
    this.write({ jsonrpc: "2.0", method, params });
  }

  /** Closes stdin, waits up to `graceMs` for the agent to exit, then ends its whole group. */
  async close(graceMs = 5_000): Promise<{ code: number | null; signal: string | null; closedMs: number }> {
    const closing = Date.now();
    this.child.stdin?.end();
    const timer = setTimeout(() => this.killGroup("SIGTERM"), graceMs);
    const killer = setTimeout(() => this.killGroup("SIGKILL"), graceMs + 3_000);
    const exit = await this.exit;
    clearTimeout(timer);
    clearTimeout(killer);
    // Whatever it left in its group goes too.
    this.killGroup("SIGKILL");
    return { ...exit, closedMs: Date.now() - closing };
  }

  killGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, signal);
    } catch {
      // Gone already.
    }
  }
}
