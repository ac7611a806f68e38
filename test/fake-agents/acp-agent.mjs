// A stand-in ACP agent for the ACP client's tests: newline-delimited JSON-RPC on stdin/stdout,
// written by hand (no SDK) the way the real CLIs write it. `node acp-agent.mjs <mode>`:
//   replay:<cli>/<case>  answer initialize and session/new (or load) with the capture's own answers, and each
//                        prompt with the updates, permission requests and answer of the capture's
//                        prompt of the same rank (test/fixtures/acp/<cli>/<case>), in the client's
//                        ids and session
//   permission           a prompt asks to run `touch scv-tool-probe.txt` (Gemini's request shape);
//                        allowed: the call completes and the reply is ALLOWED, else REJECTED
//   cancel               a prompt sends one chunk and waits for session/cancel, then answers cancelled
//   ignore-cancel        a prompt sends one chunk and never answers, cancel or not
//   die                  a prompt sends one chunk, says "fatal: model crashed" on stderr, exits 3
//   no-init              reads everything and never answers
//   garbage              lines that are not JSON-RPC around and inside every answer
//   flood:<n>            a prompt sends n one-character chunks, then answers
//   grandchild           like replay:gemini/turn, with a sleeping grandchild in its process group
//   protocol:<v>         answers initialize with protocol version <v>
//   scripted             a small agent for scv's end-to-end turns: loadSession, modes default/yolo
//                        (current: $FAKE_ACP_START_MODE or default), models fake-small/fake-large
//                        (current fake-small until session/set_model), with $FAKE_ACP_EFFORT an effort
//                        option (thought_level low/medium/high, current medium) set by
//                        session/set_config_option; each prompt's session, model and effort go to
//                        $FAKE_AGENT_DIR/acp-prompts.jsonl,
//                        sessions kept in $FAKE_AGENT_DIR/sessions so a new process can load them
//                        (their history replayed); a prompt answers "REPLY <prompt> (turn n)", or
//                        by its words: "401" / "429" a JSON-RPC error with that code (as Gemini CLI
//                        answers), "tool" a permission request ("tool twice": two, one after the
//                        other), "key-retry" a Codex-adapter retry
//                        of a 401 then a wait for session/cancel, "big <n>" one chunk of n MiB
//                        (ALLOWED/REJECTED), "hang" waits for session/cancel, "die" exits 3, "flip"
//                        reports mode default first, "huge:<n>" one message chunk of n MiB,
//                        "cancel-die" answers cancelled unasked, then exits 1.
//                        Every message received goes to $FAKE_AGENT_DIR/acp-log.jsonl.
//                        With $FAKE_ACP_GEMINI_FILES it keeps Gemini CLI 0.61.0's session files too,
//                        in $HOME/.gemini/tmp/project/chats/session-<UTC minute>-<first 8 of the
//                        id>.jsonl (its session ids are UUIDs then), and loads as it does: it first
//                        begins a file for the session under the current minute whose second line
//                        sets the history to none, then looks for the session among the files with
//                        any history, and answers "No previous sessions found for this project."
//                        when none has it. The minute is read from the epoch ms in $FAKE_ACP_NOW_FILE
//                        when that is set.
// Every mode exits when stdin ends. $FAKE_AGENT_DIR/acp-pids.json gets its pid (and the grandchild's).

import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("../fixtures/acp/", import.meta.url));
const mode = process.argv[2] ?? "replay:gemini/turn";
const [kind, argument = ""] = mode.split(/:(.*)/s);
const SESSION = "fake-session-1";
const DIR = process.env.FAKE_AGENT_DIR;

const write = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const update = (sessionId, value) =>
  write({ method: "session/update", params: { sessionId, update: value } });
const chunk = (sessionId, text) =>
  update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

const pids = [process.pid];
if (kind === "grandchild") {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  pids.push(child.pid);
}
if (process.env.FAKE_AGENT_DIR)
  writeFileSync(join(process.env.FAKE_AGENT_DIR, "acp-pids.json"), JSON.stringify(pids));

/** The capture's lines as messages, with the client's requests among them in order. */
function capture(name) {
  const [cli, base] = name.split("/");
  const read = (ext) =>
    readFileSync(join(FIXTURES, cli, `${base}.${ext}`), "utf8")
      .split("\n")
      .filter((line) => line !== "");
  const order = JSON.parse(readFileSync(join(FIXTURES, cli, `${base}.json`), "utf8")).order;
  const sent = read("stdin").map((line) => JSON.parse(line));
  const received = read("stdout");
  const sequence = [];
  let inIndex = 0;
  let outIndex = 0;
  for (const [dir] of order) {
    if (dir === "in") sequence.push({ dir, message: sent[inIndex++] });
    else sequence.push({ dir, line: received[outIndex++] });
  }
  return sequence;
}

/** What the agent says after the client's `nth` request of `method`, up to the client's next
 * request: its answer and what came after it (Gemini CLI replays a loaded session after answering). */
function replyTo(sequence, method, nth) {
  let seen = -1;
  let start = -1;
  for (let index = 0; index < sequence.length; index += 1) {
    const entry = sequence[index];
    if (entry.dir !== "in" || entry.message.method !== method) continue;
    seen += 1;
    if (seen === nth) {
      start = index;
      break;
    }
  }
  if (start < 0) return undefined;
  const original = sequence[start].message;
  const lines = [];
  for (const entry of sequence.slice(start + 1)) {
    if (entry.dir === "in") {
      if (entry.message.method !== undefined) break;
      continue;
    }
    lines.push(entry.line);
  }
  return { original, lines };
}

const waiting = new Map();
let nextId = 1000;
function ask(method, params) {
  const id = nextId++;
  write({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

const recorded = kind === "replay" || kind === "grandchild" ? capture(argument || "gemini/turn") : undefined;
const counts = new Map();
const cancels = new Set();

async function replay(message) {
  const nth = counts.get(message.method) ?? 0;
  counts.set(message.method, nth + 1);
  const reply = replyTo(recorded, message.method, nth);
  if (reply === undefined) {
    write({
      id: message.id,
      error: { code: -32601, message: `the capture has no ${message.method} #${nth}` },
    });
    return;
  }
  const recordedSession = reply.original.params?.sessionId;
  const session = message.params?.sessionId;
  for (const line of reply.lines) {
    const text = recordedSession && session ? line.split(recordedSession).join(session) : line;
    const value = JSON.parse(text);
    if (value.method !== undefined && value.id !== undefined) {
      // The agent's own request (a permission): asked in this run's ids, its answer awaited.
      await ask(value.method, value.params);
    } else if (value.method === undefined && value.id === reply.original.id) {
      write({ ...value, id: message.id });
    } else process.stdout.write(`${text}\n`);
  }
}

/** Asks the client to run `toolCall` (Gemini's three options); the option it chose. */
async function askPermission(sessionId, toolCall) {
  const answer = await ask("session/request_permission", {
    sessionId,
    options: [
      { optionId: "proceed_always", name: "Allow for this session", kind: "allow_always" },
      { optionId: "proceed_once", name: "Allow", kind: "allow_once" },
      { optionId: "cancel", name: "Reject", kind: "reject_once" },
    ],
    toolCall,
  });
  return answer.result?.outcome?.optionId;
}

async function prompt(message) {
  const sessionId = message.params.sessionId;
  switch (kind) {
    case "permission": {
      const toolCall = {
        toolCallId: "call_fake_1",
        status: "pending",
        title: "touch scv-tool-probe.txt",
        kind: "execute",
      };
      const chosen = await askPermission(sessionId, toolCall);
      if (chosen === "proceed_once" || chosen === "proceed_always") {
        update(sessionId, {
          sessionUpdate: "tool_call_update",
          toolCallId: "call_fake_1",
          status: "completed",
        });
        chunk(sessionId, "ALLOWED");
      } else chunk(sessionId, "REJECTED");
      write({ id: message.id, result: { stopReason: "end_turn" } });
      return;
    }
    case "cancel":
      chunk(sessionId, "partial");
      cancels.add(() => write({ id: message.id, result: { stopReason: "cancelled" } }));
      return;
    case "ignore-cancel":
      chunk(sessionId, "partial");
      return;
    case "die":
      chunk(sessionId, "partial");
      process.stderr.write("fatal: model crashed\n");
      process.exit(3);
      return;
    case "flood": {
      const count = Number(argument) || 1000;
      for (let index = 0; index < count; index += 1) chunk(sessionId, "x");
      write({
        id: message.id,
        result: { stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: count } },
      });
      return;
    }
    case "garbage":
      process.stdout.write("garbage from a wrapper script\n");
      chunk(sessionId, "MOCK-");
      process.stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":\n');
      process.stdout.write("\u001b[?1004l\n");
      chunk(sessionId, "REPLY");
      write({ id: message.id, result: { stopReason: "end_turn" } });
      return;
    default:
      await replay(message);
  }
}

const GEMINI_FILES = process.env.FAKE_ACP_GEMINI_FILES !== undefined;
const CHATS = join(process.env.HOME ?? ".", ".gemini", "tmp", "project", "chats");
/** Each session's own file, as Gemini CLI keeps writing the one it made or loaded. */
const geminiFiles = new Map();

function geminiMinute() {
  const file = process.env.FAKE_ACP_NOW_FILE;
  const now = file === undefined ? Date.now() : Number(readFileSync(file, "utf8"));
  return new Date(now).toISOString().slice(0, 16).replace(/:/g, "-");
}

/** Begins the session's file under the current minute, as its chat recording does on every start. */
function beginGeminiFile(sessionId) {
  mkdirSync(CHATS, { recursive: true });
  const path = join(CHATS, `session-${geminiMinute()}-${sessionId.slice(0, 8)}.jsonl`);
  appendFileSync(
    path,
    `${JSON.stringify({ sessionId, projectHash: "fake" })}\n${JSON.stringify({ $set: { messages: [] } })}\n`,
  );
  return path;
}

/** The file holding the session's history, as its session selector finds it; undefined when none. */
function findGeminiFile(sessionId) {
  let names = [];
  try {
    names = readdirSync(CHATS)
      .filter((name) => name.endsWith(`-${sessionId.slice(0, 8)}.jsonl`))
      .sort();
  } catch {
    return undefined;
  }
  return names
    .map((name) => join(CHATS, name))
    .find((path) => {
      const lines = readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      if (lines[0]?.sessionId !== sessionId) return false;
      let messages = 0;
      for (const line of lines) {
        if (Array.isArray(line.$set?.messages)) messages = line.$set.messages.length;
        else if (line.type === "user") messages += 1;
      }
      return messages > 0;
    });
}

const scriptedModes = { mode: process.env.FAKE_ACP_START_MODE ?? "default" };
const MODES = ["default", "yolo"].map((id) => ({ id, name: id }));
const MODELS = ["fake-small", "fake-large"].map((id) => ({ modelId: id, name: id }));

function sessionFile(id) {
  return join(DIR ?? ".", "sessions", `${id.replace(/[^A-Za-z0-9_-]/g, "_")}.json`);
}

function history(id) {
  try {
    return JSON.parse(readFileSync(sessionFile(id), "utf8"));
  } catch {
    return undefined;
  }
}

/** Each session's model and effort as set since it began (this process's own). */
const choices = new Map();

function chosen(sessionId) {
  return { model: "fake-small", effort: "medium", ...choices.get(sessionId) };
}

function effortOptions(sessionId) {
  return [
    {
      id: "thought_level",
      name: "Thinking",
      category: "thought_level",
      type: "select",
      currentValue: chosen(sessionId).effort,
      options: ["low", "medium", "high"].map((value) => ({ value, name: value })),
    },
  ];
}

function sessionAnswer(sessionId) {
  return {
    sessionId,
    modes: { currentModeId: scriptedModes.mode, availableModes: MODES },
    models: { currentModelId: chosen(sessionId).model, availableModels: MODELS },
    ...(process.env.FAKE_ACP_EFFORT === undefined ? {} : { configOptions: effortOptions(sessionId) }),
  };
}

async function scripted(message) {
  const { method, params = {}, id } = message;
  switch (method) {
    case "initialize":
      return write({
        id,
        result: {
          protocolVersion: 1,
          agentInfo: { name: "fake-acp", version: "0.0.0" },
          agentCapabilities: { loadSession: process.env.FAKE_ACP_NO_LOAD === undefined },
          authMethods: [],
        },
      });
    case "session/new": {
      const sessionId = GEMINI_FILES ? randomUUID() : `fake-${process.pid}-${Date.now()}`;
      mkdirSync(join(DIR ?? ".", "sessions"), { recursive: true });
      writeFileSync(sessionFile(sessionId), "[]");
      if (GEMINI_FILES) geminiFiles.set(sessionId, beginGeminiFile(sessionId));
      return write({ id, result: sessionAnswer(sessionId) });
    }
    case "session/load": {
      if (GEMINI_FILES) {
        beginGeminiFile(params.sessionId);
        const own = findGeminiFile(params.sessionId);
        if (own === undefined)
          return write({
            id,
            error: { code: -32603, message: "No previous sessions found for this project." },
          });
        geminiFiles.set(params.sessionId, own);
      }
      const past = history(params.sessionId);
      if (past === undefined)
        return write({ id, error: { code: -32002, message: `Resource not found: ${params.sessionId}` } });
      for (const text of past) {
        update(params.sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text } });
        chunk(params.sessionId, `OLD REPLY ${text}`);
      }
      return write({ id, result: sessionAnswer(params.sessionId) });
    }
    case "session/set_mode":
      scriptedModes.mode = params.modeId;
      update(params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      return write({ id, result: {} });
    case "session/set_model":
      choices.set(params.sessionId, { ...chosen(params.sessionId), model: params.modelId });
      return write({ id, result: {} });
    case "session/set_config_option":
      if (process.env.FAKE_ACP_EFFORT === undefined || params.configId !== "thought_level")
        return write({ id, error: { code: -32602, message: `no option ${params.configId}` } });
      choices.set(params.sessionId, { ...chosen(params.sessionId), effort: params.value });
      return write({ id, result: { configOptions: effortOptions(params.sessionId) } });
    case "session/prompt": {
      const sessionId = params.sessionId;
      const text = params.prompt?.[0]?.text ?? "";
      const past = history(sessionId) ?? [];
      writeFileSync(sessionFile(sessionId), JSON.stringify([...past, text]));
      const own = geminiFiles.get(sessionId);
      if (own !== undefined)
        appendFileSync(own, `${JSON.stringify({ id: randomUUID(), type: "user", content: text })}\n`);
      if (DIR)
        appendFileSync(
          join(DIR, "acp-prompts.jsonl"),
          `${JSON.stringify({ sessionId, text, ...chosen(sessionId) })}\n`,
        );
      if (text.includes("401"))
        return write({
          id,
          error: {
            code: 401,
            message: '{"error":{"code":401,"message":"API key not valid","status":"UNAUTHENTICATED"}}',
          },
        });
      if (text.includes("429"))
        return write({
          id,
          error: {
            code: 429,
            message:
              '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}',
          },
        });
      const huge = /huge:(\d+)/.exec(text);
      if (huge !== null) {
        // One chunk of that many MiB, on one line, then the answer.
        chunk(sessionId, "x".repeat(Number(huge[1]) * 1024 * 1024));
        return write({ id, result: { stopReason: "end_turn" } });
      }
      if (text.includes("cancel-die")) {
        // A server whose worker died: it answers cancelled, unasked, then exits (Qwen Code).
        write({ id, result: { stopReason: "cancelled" } });
        process.stderr.write("worker exited unexpectedly\n");
        setTimeout(() => process.exit(1), 50);
        return;
      }
      if (text.includes("die")) {
        process.stderr.write("fatal: model crashed\n");
        process.exit(3);
      }
      if (text.includes("flip")) {
        // A setting of its own turns the session back to its default mode mid-turn.
        scriptedModes.mode = "default";
        update(sessionId, { sessionUpdate: "current_mode_update", currentModeId: "default" });
      }
      if (text.includes("key-retry")) {
        // The Codex adapter retrying a refused key: its thread error says it will retry, with the
        // HTTP status (test/fixtures/acp/codex-acp/rate-limit.stdout has the 429 form); then it waits.
        update(sessionId, {
          sessionUpdate: "session_info_update",
          _meta: {
            codex: {
              error: {
                message: "Reconnecting... 1/5",
                codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: 401 } },
                additionalDetails: "unexpected status 401 Unauthorized: Incorrect API key provided",
                willRetry: true,
              },
            },
          },
        });
        cancels.add(() => write({ id, result: { stopReason: "cancelled" } }));
        return;
      }
      const big = /\bbig (\d+)\b/.exec(text);
      if (big !== null) {
        // One agent_message_chunk line of that many MiB (an answer written whole).
        chunk(sessionId, "y".repeat(Number(big[1]) * 1024 * 1024));
        return write({ id, result: { stopReason: "end_turn" } });
      }
      if (text.includes("hang")) {
        chunk(sessionId, "partial");
        cancels.add(() => write({ id, result: { stopReason: "cancelled" } }));
        return;
      }
      if (text.includes("tool")) {
        // "twice": a second request after the first is answered.
        const said = [];
        for (const n of text.includes("twice") ? [1, 2] : [1]) {
          const toolCall = {
            toolCallId: `call_${n}`,
            title: "touch probe.txt",
            kind: "execute",
            rawInput: { command: "touch probe.txt" },
          };
          update(sessionId, { sessionUpdate: "tool_call", ...toolCall, status: "pending" });
          const chosen = await askPermission(sessionId, toolCall);
          const allowed = chosen === "proceed_once" || chosen === "proceed_always";
          update(sessionId, {
            sessionUpdate: "tool_call_update",
            toolCallId: `call_${n}`,
            status: allowed ? "completed" : "failed",
          });
          said.push(allowed ? `ALLOWED ${chosen}` : "REJECTED");
        }
        chunk(sessionId, said.join(", "));
        return write({ id, result: { stopReason: "end_turn" } });
      }
      chunk(sessionId, `REPLY ${text} (turn ${past.length + 1}, mode ${scriptedModes.mode})`);
      return write({
        id,
        result: { stopReason: "end_turn", usage: { inputTokens: 10 * (past.length + 1), outputTokens: 5 } },
      });
    }
    case "session/cancel":
      for (const answer of cancels) answer();
      cancels.clear();
      return;
    default:
      if (id !== undefined) write({ id, error: { code: -32601, message: "Method not found" } });
  }
}

async function handle(message) {
  if (DIR !== undefined && message.method !== undefined)
    appendFileSync(join(DIR, "acp-log.jsonl"), `${JSON.stringify(message)}\n`);
  if (message.method === undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
    return;
  }
  if (kind === "no-init") return;
  if (kind === "scripted") return scripted(message);
  if (kind === "garbage") process.stdout.write("not json at all\n");
  switch (message.method) {
    case "initialize":
      if (recorded) return replay(message);
      return write({
        id: message.id,
        result: {
          protocolVersion: kind === "protocol" ? Number(argument) : 1,
          agentInfo: { name: "fake-acp", version: "0.0.0" },
          agentCapabilities: { loadSession: false },
          authMethods: [],
        },
      });
    case "session/new":
    case "session/load":
      if (recorded) return replay(message);
      return write({ id: message.id, result: { sessionId: SESSION } });
    case "session/prompt":
      return prompt(message);
    case "session/cancel":
      for (const answer of cancels) answer();
      cancels.clear();
      return;
    default:
      if (message.id !== undefined)
        write({ id: message.id, error: { code: -32601, message: "Method not found" } });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  void handle(message);
});
lines.on("close", () => process.exit(0));
