// What a session host passes between its ACP server and the turn connected to it, one JSON-RPC line
// at a time. One turn at a time is connected; each starts its own request ids, so the host numbers
// the requests it passes on itself and gives each answer back under the turn's id (an answer to a
// turn that has left is dropped). The server's `initialize` answer is kept and given to every later
// turn, which thus never initializes the server twice; the session the server made or loaded is
// kept, with the mode, model and options the turns set since, so a turn continuing it skips
// `session/load`; so is the answer as the session began, whose model and effort a turn that gives
// none sets back (a turn's own model or effort is that turn's only).
// A turn that leaves during a prompt has it cancelled (`session/cancel`); a permission request with
// no turn to ask is answered `cancelled`.

import { record } from "../client/waiting.js";

/** A connected turn, as the relay writes to it. */
export interface RelayLink {
  send(line: string): void;
}

/** The session the server holds: its id and its `session/new` or `session/load` answer, kept current
 * (`answer`) and as it was given (`first`). */
export interface HeldSession {
  readonly id: string;
  readonly answer: Record<string, unknown>;
  readonly first?: Record<string, unknown>;
}

interface Pending {
  readonly link: RelayLink;
  readonly id: unknown;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

export class SessionHostRelay {
  private link: RelayLink | undefined;
  private readonly pending = new Map<number, Pending>();
  /** The server's requests the connected turn has not answered yet. */
  private readonly asked = new Set<unknown>();
  private nextId = 1;
  private initialized: unknown;
  private held: HeldSession | undefined;

  /** `toServer` writes one line to the server's stdin; `onChange` hears of a session or prompt's end. */
  constructor(
    private readonly toServer: (line: string) => void,
    private readonly onChange: () => void = () => {},
  ) {}

  get session(): HeldSession | undefined {
    return this.held;
  }

  /** Whether the server has answered `initialize`. */
  get ready(): boolean {
    return this.initialized !== undefined;
  }

  /** Prompts still running, whoever sent them. */
  get prompting(): number {
    let count = 0;
    for (const pending of this.pending.values()) if (pending.method === "session/prompt") count += 1;
    return count;
  }

  get attached(): boolean {
    return this.link !== undefined;
  }

  attach(link: RelayLink): void {
    this.link = link;
  }

  /** The turn left: its prompts are cancelled, the server's questions to it answered `cancelled`. */
  detach(link: RelayLink): void {
    if (this.link !== link) return;
    this.link = undefined;
    for (const pending of this.pending.values()) {
      if (pending.link !== link || pending.method !== "session/prompt") continue;
      this.write({
        jsonrpc: "2.0",
        method: "session/cancel",
        params: { sessionId: pending.params.sessionId },
      });
    }
    for (const id of this.asked)
      this.write({ jsonrpc: "2.0", id, result: { outcome: { outcome: "cancelled" } } });
    this.asked.clear();
  }

  fromClient(link: RelayLink, line: string): void {
    if (link !== this.link) return;
    const message = parse(line);
    if (message === undefined) return;
    const { method, id } = message;
    if (typeof method !== "string") {
      // An answer to the server's own request: its id is the server's.
      this.asked.delete(id);
      this.toServer(line);
      return;
    }
    if (id === undefined) {
      this.toServer(line);
      return;
    }
    if (method === "initialize" && this.initialized !== undefined) {
      link.send(JSON.stringify({ jsonrpc: "2.0", id, result: this.initialized }));
      return;
    }
    const own = this.nextId++;
    this.pending.set(own, { link, id, method, params: record(message.params) });
    this.write({ ...message, id: own });
  }

  fromServer(line: string): void {
    const message = parse(line);
    if (message === undefined) {
      // Not JSON-RPC (a wrapper's noise): the turn's reader skips it as it would from the server.
      this.link?.send(line);
      return;
    }
    const { method, id } = message;
    if (typeof method !== "string") {
      if (typeof id !== "number") return;
      const pending = this.pending.get(id);
      if (pending === undefined) return;
      this.pending.delete(id);
      if ("result" in message) this.answered(pending, message.result);
      if (pending.method === "session/prompt") this.onChange();
      if (pending.link === this.link) pending.link.send(JSON.stringify({ ...message, id: pending.id }));
      return;
    }
    if (method === "session/update") this.noteUpdate(record(message.params));
    if (id === undefined) {
      this.link?.send(line);
      return;
    }
    if (this.link === undefined) {
      this.write(
        method === "session/request_permission"
          ? { jsonrpc: "2.0", id, result: { outcome: { outcome: "cancelled" } } }
          : { jsonrpc: "2.0", id, error: { code: -32601, message: `no client to answer ${method}` } },
      );
      return;
    }
    this.asked.add(id);
    this.link.send(line);
  }

  private answered(pending: Pending, result: unknown): void {
    const params = pending.params;
    switch (pending.method) {
      case "initialize":
        this.initialized = result;
        return;
      case "session/new": {
        const answer = record(result);
        if (typeof answer.sessionId === "string") this.hold(answer.sessionId, answer);
        return;
      }
      case "session/load":
        if (typeof params.sessionId === "string") this.hold(params.sessionId, { ...record(result) });
        return;
      case "session/set_mode":
        if (typeof params.modeId === "string")
          this.patch(params.sessionId, "modes", "currentModeId", params.modeId);
        return;
      case "session/set_model":
        if (typeof params.modelId === "string")
          this.patch(params.sessionId, "models", "currentModelId", params.modelId);
        return;
      case "session/set_config_option": {
        const options = record(result).configOptions;
        const held = this.held;
        if (Array.isArray(options) && held !== undefined && held.id === params.sessionId)
          this.held = { ...held, answer: { ...held.answer, configOptions: options } };
        return;
      }
    }
  }

  private hold(id: string, answer: Record<string, unknown>): void {
    this.held = { id, answer, first: answer };
    this.onChange();
  }

  private noteUpdate(params: Record<string, unknown>): void {
    const update = record(params.update);
    if (update.sessionUpdate === "current_mode_update" && typeof update.currentModeId === "string")
      this.patch(params.sessionId, "modes", "currentModeId", update.currentModeId);
  }

  private patch(sessionId: unknown, group: string, key: string, value: string): void {
    const held = this.held;
    if (held === undefined || held.id !== sessionId) return;
    const inner = record(held.answer[group]);
    if (Object.keys(inner).length === 0) return;
    this.held = { ...held, answer: { ...held.answer, [group]: { ...inner, [key]: value } } };
  }

  private write(message: Record<string, unknown>): void {
    this.toServer(JSON.stringify(message));
  }
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
