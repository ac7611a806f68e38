// A 2026-07-28 MCP client written out on the wire: the SDK's client refuses a `resultType: "task"`
// (it has no task runtime), so the task tests speak the extension's JSON-RPC themselves, line by line
// over `scv mcp`'s stdio, every request carrying the per-request envelope.

import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export const TASKS = "io.modelcontextprotocol/tasks";

export interface RawOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The host's capabilities on every request (the tasks extension by default). */
  readonly capabilities?: Record<string, unknown>;
}

export interface RawError {
  readonly code: number;
  readonly message: string;
}

export class RawClient {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  readonly notifications: Record<string, unknown>[] = [];
  readonly stderr: string[] = [];
  readonly #capabilities: Record<string, unknown>;
  #next = 1;

  private constructor(options: RawOptions) {
    this.#capabilities = options.capabilities ?? { extensions: { [TASKS]: {} } };
    this.#child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child.stderr?.on("data", (chunk: Buffer) => this.stderr.push(chunk.toString()));
    createInterface({ input: this.#child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      const id = message.id;
      if (typeof id === "number" && ("result" in message || "error" in message)) {
        this.#waiting.get(id)?.(message);
        this.#waiting.delete(id);
      } else this.notifications.push(message);
    });
  }

  /** Starts the server and opens a 2026-07-28 connection (server/discover). */
  static async open(
    options: RawOptions,
  ): Promise<{ client: RawClient; discovered: Record<string, unknown> }> {
    const client = new RawClient(options);
    const discovered = await client.request("server/discover", {});
    return { client, discovered };
  }

  #envelope(): Record<string, unknown> {
    return {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "scv-raw-test", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": this.#capabilities,
    };
  }

  /** Sends a request; the result, or throws the JSON-RPC error (as a RawError). */
  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await this.send(method, params);
    if ("error" in response) throw response.error as RawError;
    return response.result as Record<string, unknown>;
  }

  /** Sends a request; the whole response. */
  send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#next++;
    const meta = { ...((params._meta as Record<string, unknown> | undefined) ?? {}), ...this.#envelope() };
    const line = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } });
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#child.stdin?.write(`${line}\n`);
    });
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once("exit", resolve));
    this.#child.stdin?.end();
    await exited;
  }
}
