// How a CLI runs one headless turn: how the prompt reaches it, what it prints, how it continues a
// session, where it keeps transcripts and settings, how it reports its permission mode and bounds
// its retries.

import * as z from "zod/mini";
import { args, envName, type Field, homePath, keyPath, pattern, text } from "./fields.js";

/** scv's parsers (src/parsers/), one per output format: what the CLI prints on stdout in a headless
 * turn. `text`: stdout is the reply. `claude-stream-json`: `claude -p --output-format stream-json
 * --verbose`, JSON per line ending with `result`. `codex-jsonl`: `codex exec --json`. `pi-json`: pi
 * `--mode json`, JSON per line, first a `session` line. `gemini-stream-json`: Gemini CLI
 * `--output-format stream-json`, `init`, `message`, `tool_use`, `result`. `qwen-stream-json`: Qwen
 * Code's, Claude-shaped events with `permission_mode` in snake_case. `opencode-json`: OpenCode `run
 * --format json`, `step_start`, `text`, `tool_use`, `step_finish`, `error`. `copilot-json`: Copilot
 * CLI `--output-format json`, its session event bus as JSONL ending with `result`.
 * `cursor-stream-json`: Cursor CLI's, Claude's shapes plus `tool_call` events. `amp-stream-json`: Amp
 * `--stream-json`, Claude's stream-json shapes with `T-…` thread ids. */
const OUTPUT_FORMATS = [
  "text",
  "claude-stream-json",
  "codex-jsonl",
  "pi-json",
  "gemini-stream-json",
  "qwen-stream-json",
  "opencode-json",
  "copilot-json",
  "cursor-stream-json",
  "amp-stream-json",
  "cline-json",
  "droid-stream-json",
] as const;
export type OutputFormatKind = (typeof OUTPUT_FORMATS)[number];

/** The CLI's output format and the arguments that select it. */
export const output = () =>
  z.strictObject({
    kind: z.enum(OUTPUT_FORMATS),
    args: args(),
    /** Arguments (`-o {file}`) that make the CLI also write its final message to `{file}`, which scv
     * reads when the stream gives none: the reply survives an unparsable stream. */
    lastMessageArgs: z.optional(args()),
  });

/** How a CLI that takes its prompt as an argument reads it from its stdin instead, which scv uses for
 * a prompt too large for one argument (Linux: 128 KiB). Checked on the pinned CLI against a mock with
 * a 300 KiB prompt (test/real/prompt-verbatim.test.ts). */
const promptOnStdin = () =>
  z.strictObject({
    /** In place of the prompt's argument(s): `-` for a CLI that needs one (which then also reads a
     * prompt that is just `-` there), none for one that reads piped stdin when given no prompt. */
    args: args(),
    /** What the CLI does to the text before the model sees it: nothing, strips the whitespace at its
     * end, or appends two newlines (a blank line). */
    alters: z.enum(["nothing", "strips-end", "appends-two-newlines"]),
    /** The CLI silently cuts stdin after this many bytes; scv refuses a longer prompt rather than
     * send part of it. */
    maxBytes: z.optional(z.int().check(z.positive())),
  });
export type PromptOnStdin = Field<typeof promptOnStdin>;

/** How the prompt reaches the CLI so that it arrives as written, whatever it begins with (`-`, `@`). */
export const prompt = () =>
  z.discriminatedUnion("kind", [
    /** The prompt is the last positional argument; `endOfOptions` says the CLI honours `--` before
     * it; `onStdin`, where the CLI has a way, how it reads the prompt from stdin instead (absent: a
     * prompt no argument can carry is refused). */
    z.strictObject({
      kind: z.literal("positional"),
      endOfOptions: z.boolean(),
      onStdin: z.optional(promptOnStdin()),
    }),
    /** The prompt is the value of a flag: `args` before it normally, and `joined` (`--prompt=`) glued
     * to it as one argv element when it begins with `-`; `onStdin` as for a positional prompt. */
    z.strictObject({
      kind: z.literal("flag"),
      args: args(),
      joined: text(),
      onStdin: z.optional(promptOnStdin()),
    }),
    /** The prompt is written to the CLI's stdin, which is then closed: no argument carries it, so
     * nothing in it reads as an option or a file to attach, and it may be larger than one argument.
     * `trims`: the CLI strips whitespace from both ends of what it reads and appends its first
     * positional argument to it, so the prompt's trailing whitespace goes as that argument, and a
     * prompt beginning with whitespace (which reads as neither) goes as that argument alone. */
    z.strictObject({ kind: z.literal("stdin"), trims: z.boolean() }),
  ]);
export type PromptStyle = Field<typeof prompt>;

/** How a CLI continues an earlier conversation; `{session}` is the vendor session id. */
export const resume = () =>
  z.discriminatedUnion("kind", [
    /** `reason`, where known, says why (a resume that needs the vendor's service, a stream that
     * names no session), for the one line that refuses `-c`. */
    z.strictObject({ kind: z.literal("unsupported"), reason: z.optional(text()) }),
    z.strictObject({
      kind: z.literal("supported"),
      /** Starts a session under an id scv chooses; absent when the CLI picks its own and reports it. */
      start: z.optional(args()),
      /** Placed right after the fixed arguments when continuing (`exec resume`). */
      subcommand: z.optional(args()),
      /** Options that continue the session. */
      options: args(),
      /** Placed right before the prompt when continuing, for a CLI taking the id positionally. */
      positional: z.optional(args()),
      /** What a valid vendor session id looks like; nothing else may enter argv. */
      idPattern: pattern(),
      /** Where the CLI keeps a session it started under scv's id (relative to the agent home,
       * `{session}` for the id), for a CLI whose stream names the session only at its end: after a
       * stopped turn, its presence shows that there is a session to continue. Where the row names
       * no `conversationFiles`, it is also the folder `conversations rm --transcript` and gc remove
       * whole. */
      sessionPath: z.optional(homePath()),
      /** The CLI's error when the session it was asked to continue is gone: such a turn says that the
       * conversation cannot be continued, and what is lost (exit 2). An ACP server's refused
       * `session/load` is read the same way, or by its resource-not-found code. */
      lost: z.optional(pattern()),
    }),
  ]);
export type Resume = Field<typeof resume>;

/** Where a CLI keeps transcripts inside its agent home: files with `extension` anywhere below `dir`,
 * named after their session id. */
export const conversationFiles = () =>
  z.strictObject({
    dir: homePath(),
    extension: text(),
    /** Named after only the id's first `idPrefix` characters (`session-<minute>-<first 8>.jsonl`):
     * such a name stands for the session. Two sessions share 8 hex characters once in 4 billion
     * pairs. */
    idPrefix: z.optional(z.int().check(z.gte(8))),
  });

/** How a CLI run once per turn reports the permission mode it runs in. scv stops a turn whose
 * report contradicts its policy: `auto` requires the `full` value, `default` refuses it. `label` says
 * what the report is called in messages ("permission mode"), and `settings` (relative to the agent
 * home) is where a setting that overrides the flags would live. */
export const modeReport = () =>
  z.discriminatedUnion("kind", [
    /** In its stream: the output format's parser reads the mode from the CLI's own event (its
     * `mode` events). */
    z.strictObject({ kind: z.literal("stream"), label: text(), full: text(), settings: homePath() }),
    /** In a log of the session the CLI writes beside its stream: `rollout-<time>-<session id>.jsonl`
     * below `dir`, whose `turn_context` lines carry the sandbox policy (`payload.sandbox_policy`),
     * read as they are written. The first such line may come after a first tool ran, so `settingKey`
     * (a TOML key of `settings`, top-level or in the `[profiles.<profile>]` it selects) is also read
     * before the CLI is started. */
    z.strictObject({
      kind: z.literal("session-log"),
      label: text(),
      dir: homePath(),
      full: text(),
      settings: homePath(),
      settingKey: text(),
    }),
    /** Nothing scv reads. */
    z.strictObject({ kind: z.literal("none") }),
  ]);
export type ModeReport = Field<typeof modeReport>;

/** How the CLI's own retries of a failed model request (a rate limit, an overloaded or unreachable
 * API) are bounded. `env`: one variable, which scv sets from `[agents.<name>] max_retries`; `config`:
 * only the CLI's own config file in its agent home, where the user sets it; `none`: no setting. */
export const retries = () =>
  z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("env"), variable: envName(), note: text() }),
    z.strictObject({ kind: z.literal("config"), file: homePath(), setting: text(), note: text() }),
    z.strictObject({ kind: z.literal("none"), note: text() }),
  ]);

/** The CLI's own settings file. */
export const ownConfig = () =>
  z.strictObject({
    /** Relative to the agent home. */
    file: homePath(),
    /** A model provider and its key set there by hand sign the CLI in, instead of its own sign-in
     * (named as a way to sign in when that cannot run). */
    signsIn: z.boolean(),
  });

/** Values at paths of a JSON settings file (relative to the agent home), each with why scv sets it. */
export const homeSettings = () =>
  z.strictObject({
    file: homePath(),
    values: z.array(z.strictObject({ path: keyPath(), value: z.boolean(), why: text() })),
  });
export type HomeSettings = Field<typeof homeSettings>;
