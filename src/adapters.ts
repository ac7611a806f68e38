// The agent CLIs scv can delegate to, one descriptor each.
//
// A descriptor is the whole integration: the command line of one headless turn, where the CLI keeps
// its state inside scv's private agent home, which inherited variables it must never see, and how
// `scv agents login|status|logout` handle it. Adding an agent is adding one entry to ADAPTERS;
// nothing outside this file switches on an agent's name.
//
// Facts come from the published CLIs as checked in the lab (versions in `verified`); where today's
// CLI differs from the seed descriptor scv was modelled on, a one-line comment on the field says so.
// The rows added since have a file each in src/table/ (moving there as they are), listed below.

import { auggie } from "./table/auggie.js";
import { cline } from "./table/cline.js";
import { crush } from "./table/crush.js";
import { droid } from "./table/droid.js";
import { kilo } from "./table/kilo.js";
import { qoder } from "./table/qoder.js";

/** A CLI's own credential files, relative to the agent home. */
export type KeyStore =
  /** Claude Code with an API key: scv keeps the key in `key` (0600) and points an `apiKeyHelper` in
   * `settings` at it; `credentials` is checked for a conflicting subscription sign-in. */
  | { kind: "claude-api-key"; key: string; settings: string; credentials: string }
  /** Claude Code's subscription sign-in (`/login` or `auth login`) and its config file. */
  | { kind: "claude-account"; credentials: string; config: string }
  /** Codex's `auth.json`: `loginArgs` (`login --with-api-key`) store a key read on stdin there, an
   * API key (`auth_mode` "apikey") or a ChatGPT sign-in (`tokens` with a refresh token). */
  | { kind: "codex-auth"; auth: string; loginArgs: readonly string[] }
  /** Gemini CLI and its fork Qwen Code: the key as `variable` in the `dotenv` file, or without one in
   * the `env` block of the JSON `settings`, whose `security.auth.selectedType` set to `selectedType`
   * makes the CLI use it. */
  | { kind: "selected-key"; variable: string; settings: string; selectedType: string; dotenv?: string }
  /** Grok: sign-ins from `grok login` in `auth` (a JSON object of entries), or an API key in the
   * `config` profile of its default model. */
  | { kind: "grok"; auth: string; config: string }
  /** DeepSeek Harness `.credentials.yaml`, holding `refs.<variable>`. */
  | { kind: "dsh-refs"; path: string; variable: string }
  /** pi's agent directory: `auth.json`, plus an OpenAI-compatible endpoint in `models.json`. */
  | { kind: "pi"; dir: string };

/** The key stores scv can write an API key into (the others are written by the CLI's own sign-in). */
export type ApiKeyStore = Extract<
  KeyStore,
  { kind: "claude-api-key" | "codex-auth" | "selected-key" | "dsh-refs" }
>;

export type KeyStoreKind = KeyStore["kind"];

/** What a CLI's own sign-in or sign-out needs from the person running it. */
export type Needs =
  /** Nothing: it runs to its end alone, within a time limit. */
  | "nothing"
  /** A person at the terminal: it asks there (a picker, a key, a pasted code). */
  | "terminal"
  /** A browser on this machine, which it opens and which finishes it (a redirect to localhost); or,
   * without a display, a person at the terminal who opens its link. */
  | "browser";

/** How scv signs an agent in, inside its private agent home. `apiKey` offers `login --with-api-key`
 * besides a CLI's own sign-in; `import` offers `login --import`; `deviceCode` names the CLI's own
 * arguments for a sign-in that needs neither a terminal nor a display (a code shown here, entered
 * on any device), taken after `--`. */
export type Login =
  /** Run the CLI's own sign-in command with the terminal attached. */
  | {
      kind: "command";
      args: readonly string[];
      needs: Needs;
      deviceCode?: readonly string[];
      apiKey?: ApiKeyStore;
      import?: readonly ImportFile[];
    }
  /** Open the CLI interactively (it needs a terminal); `hint` names its in-app sign-in. */
  | {
      kind: "interactive";
      args: readonly string[];
      hint: string;
      deviceCode?: readonly string[];
      apiKey?: ApiKeyStore;
      import?: readonly ImportFile[];
    }
  /** Read an API key (no echo, or stdin) and store it in the CLI's own credential file. */
  | { kind: "api-key"; store: ApiKeyStore }
  /** Copy the user's own configuration of the CLI into its scv home. */
  | { kind: "import"; files: readonly ImportFile[] };

/** One file `import` copies from the user's own home into the agent home. */
export interface ImportFile {
  /** Relative to the user's home. */
  readonly from: string;
  /** Relative to the agent home. */
  readonly to: string;
  /** What the file must hold to be copied. */
  readonly accept: ImportCheck;
}

/** What an imported file must hold. */
export type ImportCheck =
  /** A Codex `auth.json` holding an API key and no ChatGPT tokens: a ChatGPT sign-in's refresh token
   * rotates, so two homes sharing it sign each other out — it may live in one home only. */
  "codex-api-key";

/** How scv condenses a CLI's own status output; the raw output names accounts or key fragments. */
export type StatusSummary =
  /** `codex login status`: "API key" or "ChatGPT" in its text. */
  | "codex-text"
  /** `claude auth status` JSON: `loggedIn`, `authMethod`. */
  | "claude-json"
  /** The exit status alone. */
  | "exit-status";

/** How scv tells whether an agent is signed in. */
export type Status =
  /** The CLI prints its own status and exits non-zero when signed out. */
  | { kind: "command"; args: readonly string[]; summary: StatusSummary }
  /** scv inspects the key store without printing secrets. */
  | { kind: "stored"; store: KeyStore }
  /** No verified way to tell: `scv agents check` tells by calling it. */
  | { kind: "unchecked" };

/** How scv signs an agent out. An `interactive` one removes a key scv stored (the login's `apiKey`)
 * first, and opens the CLI only where a sign-in of its own may remain. */
export type Logout =
  | { kind: "command"; args: readonly string[]; needs: Needs }
  /** scv removes the credential files of the key store. */
  | { kind: "stored"; store: KeyStore }
  | { kind: "interactive"; args: readonly string[]; hint: string };

/** What the CLI prints on stdout in a headless turn (src/parsers/ has a parser for each). */
export type OutputFormatKind =
  /** Plain text: stdout is the reply. */
  | "text"
  /** `claude -p --output-format stream-json --verbose`: JSON per line ending with `result`. */
  | "claude-stream-json"
  /** `codex exec --json`: JSONL. */
  | "codex-jsonl"
  /** pi `--mode json`: JSON per line, first a `session` line. */
  | "pi-json"
  /** Gemini CLI `--output-format stream-json`: `init`, `message`, `tool_use`, `result`. */
  | "gemini-stream-json"
  /** Qwen Code `--output-format stream-json`: Claude-shaped events, `permission_mode` snake_case. */
  | "qwen-stream-json"
  /** OpenCode `run --format json`: `step_start`, `text`, `tool_use`, `step_finish`, `error`. */
  | "opencode-json"
  /** Copilot CLI `--output-format json`: its session event bus as JSONL, ending with `result`. */
  | "copilot-json"
  /** Cursor CLI `--output-format stream-json`: Claude's shapes plus `tool_call` events. */
  | "cursor-stream-json"
  /** Amp `--stream-json`: Claude's stream-json shapes, `T-…` thread ids. */
  | "amp-stream-json"
  /** Cline `--json`: `hook_event`, `agent_event` and a closing `run_result`; no session id. */
  | "cline-json"
  /** Factory Droid `exec -o stream-json`: `system`/`init`, `message`, `tool_call`, `tool_result`,
   * `completion` or `error`. */
  | "droid-stream-json";

/** The CLI's output format and the arguments that select it. */
export interface OutputFormat {
  readonly kind: OutputFormatKind;
  readonly args: readonly string[];
  /** Arguments (`-o {file}`) that make the CLI also write its final message to `{file}`, which scv
   * reads when the stream gives none: the reply survives an unparsable stream. */
  readonly lastMessageArgs?: readonly string[];
}

/** How a CLI that takes its prompt as an argument reads it from its stdin instead, which scv uses for
 * a prompt too large for one argument (Linux: 128 KiB). Checked on the pinned CLI against a mock with
 * a 300 KiB prompt (test/real/prompt-verbatim.test.ts). */
export interface PromptOnStdin {
  /** In place of the prompt's argument(s): `-` for a CLI that needs one (Codex, which then also reads a
   * prompt that is just `-` there), none for one that reads piped stdin when given no prompt. */
  readonly args: readonly string[];
  /** What the CLI does to the text before the model sees it: nothing, strips the whitespace at its
   * end, or appends two newlines (a blank line). */
  readonly alters: "nothing" | "strips-end" | "appends-two-newlines";
  /** The CLI silently cuts stdin after this many bytes (Gemini CLI: 8 MiB); scv refuses a longer
   * prompt rather than send part of it. */
  readonly maxBytes?: number;
}

/** How the prompt reaches the CLI so that it arrives as written, whatever it begins with (`-`, `@`). */
export type PromptStyle =
  /** The prompt is the last positional argument; `endOfOptions` says the CLI honours `--` before it;
   * `onStdin`, where the CLI has a way, how it reads the prompt from stdin instead (absent: a prompt
   * no argument can carry is refused). */
  | { kind: "positional"; endOfOptions: boolean; onStdin?: PromptOnStdin }
  /** The prompt is the value of a flag: `args` before it normally, and `joined` (`--prompt=`) glued to
   * it as one argv element when it begins with `-`; `onStdin` as for a positional prompt. */
  | { kind: "flag"; args: readonly string[]; joined: string; onStdin?: PromptOnStdin }
  /** The prompt is written to the CLI's stdin, which is then closed: no argument carries it, so
   * nothing in it reads as an option or a file to attach, and it may be larger than one argument.
   * `trims`: the CLI strips whitespace from both ends of what it reads and appends its first
   * positional argument to it, so the prompt's trailing whitespace goes as that argument, and a
   * prompt beginning with whitespace (which reads as neither) goes as that argument alone. */
  | { kind: "stdin"; trims: boolean };

/** How a CLI continues an earlier conversation; `{session}` is the vendor session id. */
export type Resume =
  /** `reason`, where known, says why (a resume that needs the vendor's service, a stream that names
   * no session), for the one line that refuses `-c`. */
  | { kind: "unsupported"; reason?: string }
  | {
      kind: "supported";
      /** Starts a session under an id scv chooses; absent when the CLI picks its own and reports it. */
      start?: readonly string[];
      /** Placed right after the fixed arguments when continuing (Codex's `exec resume`). */
      subcommand?: readonly string[];
      /** Options that continue the session. */
      options: readonly string[];
      /** Placed right before the prompt when continuing, for a CLI taking the id positionally. */
      positional?: readonly string[];
      /** What a valid vendor session id looks like; nothing else may enter argv. */
      idPattern: RegExp;
      /** Where the CLI keeps a session it started under scv's id (relative to the agent home,
       * `{session}` for the id), for a CLI whose stream names the session only at its end: after a
       * stopped turn, its presence shows that there is a session to continue. Where the row names
       * no `conversationFiles`, it is also the folder `conversations rm --transcript` and gc remove whole. */
      sessionPath?: string;
      /** The CLI's error when the session it was asked to continue is gone: such a turn says that the
       * conversation cannot be continued, and what is lost (exit 2). An ACP server's refused
       * `session/load` is read the same way, or by its resource-not-found code. */
      lost?: RegExp;
    };

/** Where a CLI keeps transcripts inside its agent home: files with `extension` anywhere below `dir`,
 * named after their session id. */
export interface ConversationFiles {
  readonly dir: string;
  readonly extension: string;
  /** Named after only the id's first `idPrefix` characters (Gemini CLI's
   * `session-<minute>-<first 8>.jsonl`): such a name stands for the session. Two sessions share 8
   * hex characters once in 4 billion pairs. */
  readonly idPrefix?: number;
}

/** How scv talks to an agent in a turn: its CLI run once per turn, or its Agent Client Protocol
 * server (JSON-RPC over stdio) started for the turn. */
export type TransportKind = "process" | "acp";

/** What makes an ACP session run without asking, under policy `auto`. */
export type AcpFullPermission =
  /** `session/set_mode` to this mode id, which the session then reports. */
  | { kind: "mode"; mode: string }
  /** `session/set_config_option` of `option` to `value`. */
  | { kind: "option"; option: string; value: string }
  /** Launch arguments, in place of the `{full}` entry of `args` (dropped under `default`). */
  | { kind: "args"; args: readonly string[] }
  /** Nothing: the server asks for nothing scv knows how to turn off. */
  | { kind: "none" };

/** How to start an agent's ACP server, and what its sessions need. */
export interface AcpLaunch {
  /** The executable: the CLI's own, or the adapter's that `package` installs. */
  readonly command: string;
  readonly args: readonly string[];
  /** Arguments that choose the model at launch (`{model}`), where the server needs it before any
   * session exists; without them the model is set in the session, from what it offers. */
  readonly modelArgs?: readonly string[];
  /** The npm package of the official adapter that serves ACP for a CLI without a server of its
   * own: `scv agents install <agent> --acp` installs it into scv's prefix. */
  readonly package?: string;
  /** The variable through which the adapter (`package`) runs a given CLI instead of the one it
   * bundles: scv sets it to the agent's CLI as it locates it (the config's `command`, its tools, the
   * usual folders, PATH), so that the adapter drives the same CLI a per-turn turn would run. When
   * the CLI is not installed it stays unset and the adapter runs its own copy. */
  readonly cliPathVariable?: string;
  /** What `auto` sets; scv then checks the mode the session reports. */
  readonly full: AcpFullPermission;
  /** Variables set under policy `auto` besides the mode (Codex's live web search). */
  readonly fullEnvironment: readonly EnvPair[];
  /** The prompt answer's `usage` is a running total over the session. */
  readonly cumulativeUsage?: boolean;
  /** Notices the server sends as message text rather than as errors (see parsers/acp.ts). */
  readonly textNotices?: { readonly error: RegExp; readonly info: RegExp };
  /** Whether scv ran this server against the loopback mock (`version` is the server's, or the
   * adapter's). */
  readonly verified: Verified;
  /** A limit of the server found in the lab, for docs/agents.md. */
  readonly known?: string;
  /** Values scv keeps in the agent home's own JSON settings file before it starts the server. */
  readonly homeSettings?: HomeSettings;
  /** A server whose `session/load` in the UTC minute the session was saved in destroys it: scv waits
   * for the next minute first (turn/load-minute.ts). The session's files are found below the agent
   * home's `dir`, a few folders deep, by `name`, whose groups give the minute each was made (`minute`,
   * `YYYY-MM-DDTHH-MM` in UTC) and the start of the session's id (`session`); the earliest is the
   * session's own. */
  readonly loadAfterMinute?: { readonly dir: string; readonly name: RegExp };
}

/** Values at paths of a JSON settings file (relative to the agent home), each with why scv sets it. */
export interface HomeSettings {
  readonly file: string;
  readonly values: readonly {
    readonly path: readonly string[];
    readonly value: boolean;
    readonly why: string;
  }[];
}

/** Whether the owner can take a conversation over in the CLI's own interactive terminal. */
export type Takeover =
  | { kind: "unsupported" }
  | { kind: "refused"; reason: string }
  /** `verified`: the CLI version under which the contract suite opened a session scv started, typed
   * a message there and continued after it (test/real/attach.test.ts); absent on a row defined in
   * the user's config. */
  | { kind: "supported"; args: readonly string[]; fullArgs: readonly string[]; verified?: Verified };

/** How a CLI run once per turn reports the permission mode it runs in. scv stops a turn whose
 * report contradicts its policy: `auto` requires the `full` value, `default` refuses it. `settings`
 * (relative to the agent home) is where a setting that overrides the flags would live. */
export type ModeReport =
  /** Claude Code's `system/init` event carries `permissionMode`. */
  | { kind: "claude-init"; full: string; settings: string }
  /** Codex reports no mode in its stream; the `turn_context` lines of its rollout file (in `dir`,
   * named after the thread id) have `approval_policy` and `sandbox_policy`. Only the sandbox tells
   * the policies apart: the approval policy is "never" under both (lab, codex 0.171.0). The rollout
   * line comes ~100 ms after the start, when a first tool may already run, so `settingKey` (a TOML
   * key of `settings`, top-level or in the `[profiles.<profile>]` it selects) is also read before
   * the CLI is started. */
  | { kind: "codex-rollout"; dir: string; full: string; settings: string; settingKey: string }
  /** Nothing scv reads. */
  | { kind: "none" };

/** The CLI's own settings file. */
export interface OwnConfig {
  /** Relative to the agent home. */
  readonly file: string;
  /** A model provider and its key set there by hand sign the CLI in, instead of its own sign-in
   * (named as a way to sign in when that cannot run). */
  readonly signsIn: boolean;
}

/** Whether the row was checked against the published CLI. */
/** How the CLI's own retries of a failed model request (a rate limit, an overloaded or unreachable
 * API) are bounded. `env`: one variable, which scv sets from `[agents.<name>] max_retries`; `config`:
 * only the CLI's own config file in its agent home, where the user sets it; `none`: no setting. */
export type RetryBound =
  | { kind: "env"; variable: string; note: string }
  | { kind: "config"; file: string; setting: string; note: string }
  | { kind: "none"; note: string };

export type Verified =
  /** Driven through whole turns against the lab's loopback mock at `version`. */
  | { kind: "lab"; version: string }
  /** Checked at `version` only where no model is needed — it installs and answers `--version`,
   * takes scv's arguments, says it is signed out and how to sign in — because no turn can reach the
   * mock (`reason`: it talks only to its vendor's service). */
  | { kind: "offline"; version: string; reason: string }
  | { kind: "unverified"; reason: string };

/** The shape of a file of MCP servers scv writes for one turn (src/turn/mcp-servers.ts). A stdio
 * server's variables are never in it: they go to a 0600 file of their own that `/bin/sh` sources. */
export type McpFileFormat =
  /** `{"mcpServers": {name: {command, args} | {type: "http", url, headers}}}` (Claude Code). */
  | "mcp-servers"
  /** The same with `type: "local"` and `tools: ["*"]` on each server (Copilot CLI). */
  | "copilot-mcp-servers"
  /** `{"mcp": {name: {type: "local", command: [...]} | {type: "remote", url, headers}}}`, each
   * `enabled` (OpenCode). */
  | "opencode-config";

/** How a CLI is given the MCP servers of one turn (`--mcp`, `[agents.<name>] mcp`), and kept from
 * others it would load. What scv renders lives for the turn only. */
export type McpPassing =
  /** A file of `format` named on the command line by `args` (`{file}`); `isolate` are arguments
   * given on every turn, servers or none, that keep the CLI's other MCP servers out. */
  | {
      kind: "args-file";
      format: McpFileFormat;
      args: readonly string[];
      isolate: readonly string[];
      verified: Verified;
    }
  /** `-c mcp_servers.<name>.<key>=<TOML value>` overrides (Codex): no file, so an http server's
   * headers, which `ps` would show there, are refused. */
  | { kind: "config-args"; flag: string; table: string; verified: Verified }
  /** A config file of `format` named by `variable`, merged over the CLI's others. */
  | { kind: "settings-env"; variable: string; format: McpFileFormat; verified: Verified }
  | { kind: "unsupported"; reason: string };

/** A variable and its value (or, for home variables, a path relative to the agent home). */
export type EnvPair = readonly [name: string, value: string];

/** How a reviewer's reply is held to the findings' JSON Schema (`scv review`, src/review/), where its
 * CLI has an option for it; given on a repair turn too (a resumed run does not keep it). */
export type ReplySchema =
  /** A file holding the schema, named by `args` (`{file}`). */
  | { kind: "file"; args: readonly string[] }
  /** The schema itself, as JSON, in `args` (`{schema}`). */
  | { kind: "inline"; args: readonly string[] }
  /** No such option: the prompt asks for the JSON, and scv validates what comes back. */
  | { kind: "prompt" };

/** What a review turn needs of a CLI (src/review/): a reviewer reads the tree and changes nothing. */
export interface ReviewSupport {
  /** Arguments that keep the turn from changing the tree, given in place of the policy's
   * full-permission ones, on a first and a continued turn alike; empty where the CLI has no such
   * mode scv knows (the prompt alone asks it to change nothing). From the CLI's own `--help` at the
   * row's version, each noted on the row. */
  readonly readOnlyArgs: readonly string[];
  readonly schema: ReplySchema;
}

/** The API an endpoint of the user's own must serve to a CLI (`[agents.<name>] base_url`). */
export type EndpointApi =
  /** Anthropic's Messages API; `base_url` without `/v1` (the CLI appends `/v1/messages`). */
  | "anthropic-messages"
  /** OpenAI's Responses API; `base_url` ends in `/v1`. */
  | "openai-responses"
  /** OpenAI's Chat Completions API; `base_url` ends in `/v1`. */
  | "openai-chat"
  /** Google's Gemini API; `base_url` without `/v1beta`. */
  | "gemini";

/** Where a CLI takes the base URL of an endpoint of the user's own. Each form is rendered for one
 * turn only (src/turn/endpoint.ts): nothing is written into the CLI's own settings. */
export type EndpointUrl =
  /** A variable of its own. */
  | { kind: "env"; variable: string }
  /** A model provider of its own, `provider`, given as `flag` overrides of its TOML config
   * (`-c model_providers.<provider>.base_url=…`), reading its key from the row's `key` variable. */
  | { kind: "config-args"; flag: string; provider: string }
  /** A provider `provider` in a JSON config given whole in `variable`, merged over its other config
   * files, its key read from the row's `key` variable (`{env:…}`); the turn's model is given as
   * `<provider>/<model>`, and the provider lists it. */
  | { kind: "config-env"; variable: string; format: "opencode-config"; provider: string }
  /** A provider `provider` registered by an extension file scv writes into the turn's TMPDIR and names
   * with `args` (`{file}`), its key read from the row's `key` variable; the turn's model is given as
   * `<provider>/<model>`, and the provider lists it. */
  | { kind: "extension-file"; args: readonly string[]; format: "pi-extension"; provider: string }
  /** A settings file of `format` scv writes into the turn's TMPDIR, with a provider `provider` at the
   * endpoint serving the turn's model, but no key: the CLI reads it from the row's `key` variable.
   * It is named by `args` (`{file}`), or by the variable `variable`. `custom-models`: a list of
   * custom models (model, display name `provider`, `apiType` the settings' name of the endpoint's
   * API, base URL, key as `${VAR}`); `provider-settings`: a providers file whose last used provider
   * is `provider`. `modelName` is the model as the CLI is then told it (`{provider}` replaced),
   * absent for the turn's model as it is. */
  | {
      kind: "settings-file";
      format: "custom-models" | "provider-settings";
      provider: string;
      args: readonly string[];
      variable?: string;
      apiType?: string;
      modelName?: string;
    };

/** How a CLI is pointed at a model endpoint or proxy of the user's own: `base_url` under
 * `[agents.<name>]` in scv's config, and `api_key_env`, the variable of scv's environment holding its
 * key. The key goes only into the agent's environment, as `key`. */
export type Endpoint =
  | {
      kind: "supported";
      api: EndpointApi;
      url: EndpointUrl;
      /** The variable that carries the key, set in this agent's environment only. */
      key: string;
      /** Arguments every such turn adds after the fixed ones (never the key). */
      args: readonly string[];
      /** A value the CLI's own JSON settings must hold for it to use the key (Gemini CLI's chosen
       * sign-in, which no variable or flag overrides): scv sets it where none is set, and refuses a
       * turn where the user chose another. */
      requires?: { readonly file: string; readonly path: readonly string[]; readonly value: string };
      /** Whether the same rendering reaches its ACP server (`--transport acp`). */
      acp: boolean;
      verified: Verified;
    }
  | { kind: "unsupported"; reason: string };

export interface AdapterDescriptor {
  /** The CLI token (`scv delegate <name>`) and the home folder `agents/<name>`. */
  readonly name: string;
  /** Product name for messages. */
  readonly product: string;
  /** The family of the models the CLI runs (`claude`, `gpt`, `gemini`, …), so a review goes to
   * another family than the author's; null where the user picks among makers' models (the family is
   * then read from the model's id: src/review/family.ts). */
  readonly family: string | null;
  /** What this agent offers, as one factual clause (`scv agents list --json`). */
  readonly offers: string;
  /** npm package(s) that install the CLI; empty when it is not on npm. */
  readonly packages: readonly string[];
  /** Other npm packages whose folder may hold the executable (a dependency's), read for its version. */
  readonly binPackages?: readonly string[];
  /** The npm package holding the CLI's binary for this machine, `{platform}` and `{arch}` as Node
   * names them, which `scv agents install` installs beside `packages`: the CLI's package names a
   * version of it the registry lacks, and npm skips such an optional dependency without a word. */
  readonly platformPackage?: string;
  readonly verified: Verified;
  readonly command: string;
  /** Fixed arguments right after the command. */
  readonly args: readonly string[];
  /** Arguments every headless turn needs, after the resume subcommand when continuing. */
  readonly headlessArgs?: readonly string[];
  readonly prompt: PromptStyle;
  readonly modelArgs: readonly string[];
  readonly effortArgs: readonly string[];
  /** Effort levels the CLI accepts; empty when it takes none. */
  readonly effortLevels: readonly string[];
  readonly modelHint: string;
  /** The CLI's model ids may contain `/` (`provider/model`): `agent:a/b` with a `b` that is no effort
   * level is then read as the model `a/b`; without it, such a spec is refused as a misspelt effort. */
  readonly modelsMayHaveSlash?: boolean;
  /** Variables pointing the CLI's state into the agent home, as paths relative to it. */
  readonly homeEnvironment: readonly EnvPair[];
  /** Fixed variables for every delegated turn. */
  readonly fixedEnvironment: readonly EnvPair[];
  /** Credential, endpoint and state variables no delegated agent inherits; a trailing `*` is a prefix. */
  readonly removedEnvironment: readonly string[];
  /** Under policy `auto`: the CLI's own switches that turn off approval prompts and sandbox. */
  readonly fullPermissionArgs: readonly string[];
  readonly fullPermissionEnvironment?: readonly EnvPair[];
  /** The variable with which a CLI that refuses its full-permission mode to root is told it runs in
   * a sandbox (a container or VM) and grants it after all. scv never sets it; the hint after such a
   * refusal names it, for the user to set in the agent's config `env` or with `--env`. */
  readonly rootSandboxEnvironment?: EnvPair;
  readonly modeReport: ModeReport;
  /** Per-user install directories searched before `PATH`, relative to the user's home. */
  readonly searchDirs: readonly string[];
  readonly login: Login;
  /** The CLI's own settings file inside the agent home (the README's table of each CLI's files is
   * generated from it): where its settings go, such as a custom endpoint or MCP servers. */
  readonly ownConfig: OwnConfig;
  /** How `base_url` and `api_key_env` under `[agents.<name>]` point the CLI at an endpoint of the
   * user's own; a refused sign-in is then that key's, not the CLI's own sign-in's. */
  readonly endpoint: Endpoint;
  readonly status: Status;
  /** A key store read before every turn when `status` is not itself a stored one: a signed-out
   * verdict refuses the turn before spawning (exit 4), where the CLI would otherwise retry its
   * network for minutes. Absent when no file tells. */
  readonly preflight?: KeyStore;
  readonly logout: Logout;
  readonly output: OutputFormat;
  readonly resume: Resume;
  /** Transcripts `scv agents gc` may remove; null when unknown. */
  readonly conversationFiles: ConversationFiles | null;
  /** Files in the agent home that hold its sign-in or keys, relative to it. */
  readonly credentialFiles: readonly string[];
  /** Values scv keeps in the agent home's own JSON settings file before it starts the CLI there (a
   * turn over either transport, `scv attach`, `scv run`, its own sign-in and sign-out); an ACP
   * server's own are `acp.homeSettings`. */
  readonly homeSettings?: HomeSettings;
  /** How the user bounds the CLI's own retries (docs/agents.md, "Retries"). */
  readonly retries: RetryBound;
  /** The transport a turn uses unless `--transport` or the config's `transport` says otherwise. */
  readonly transport: TransportKind;
  /** Its ACP server; null when scv knows none. */
  readonly acp: AcpLaunch | null;
  /** Whether its CLI has a verified one-process-per-turn mode (the `process` transport). */
  readonly cliTurns: boolean;
  readonly takeover: Takeover;
  /** How a per-turn CLI gets MCP servers (an ACP turn gets them in `session/new`). */
  readonly mcpPassing: McpPassing;
  /** How a review turn runs it: read-only, held to the findings' schema where it can be. */
  readonly review: ReviewSupport;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Claude Code's own terminal asks before some actions even with its prompts off. */
const CLAUDE_TAKEOVER =
  "Claude Code's own terminal asks before some actions even with its prompts off (deleting files, " +
  "publishing), and keys typed there would answer those prompts instead of scv";

const CLAUDE_KEY_STORE = {
  kind: "claude-api-key",
  key: ".anthropic-api-key",
  settings: ".claude/settings.json",
  credentials: ".claude/.credentials.json",
} as const satisfies KeyStore;

const CLAUDE_ACCOUNT_STORE = {
  kind: "claude-account",
  credentials: ".claude/.credentials.json",
  // With CLAUDE_CONFIG_DIR set, `.claude.json` lives inside that folder (lab: config-dir case).
  config: ".claude/.claude.json",
} as const satisfies KeyStore;

const PI_STORE = { kind: "pi", dir: ".pi/agent" } as const satisfies KeyStore;

// `codex login --with-api-key` reads the key on stdin and writes auth.json itself (lab: 0600).
const CODEX_STORE = {
  kind: "codex-auth",
  auth: "auth.json",
  loginArgs: ["login", "--with-api-key"],
} as const satisfies KeyStore;

// Only an API-key auth.json is copied: a ChatGPT sign-in's refresh token may live in one home only.
const CODEX_IMPORT = [{ from: ".codex/auth.json", to: "auth.json", accept: "codex-api-key" }] as const;

// The lab's recipe: the key in ~/.gemini/.env, API-key auth selected in ~/.gemini/settings.json.
const GEMINI_STORE = {
  kind: "selected-key",
  variable: "GEMINI_API_KEY",
  dotenv: ".gemini/.env",
  settings: ".gemini/settings.json",
  selectedType: "gemini-api-key",
} as const satisfies KeyStore;

// The lab's recipe: an OpenAI-compatible key in the `env` block of ~/.qwen/settings.json.
const QWEN_STORE = {
  kind: "selected-key",
  variable: "OPENAI_API_KEY",
  settings: ".qwen/settings.json",
  selectedType: "openai",
} as const satisfies KeyStore;

const DSH_STORE = {
  kind: "dsh-refs",
  path: ".dsh/.credentials.yaml",
  variable: "DEEPSEEK_API_KEY",
} as const satisfies KeyStore;

/** A CLI that starts a session under the UUID scv gives it and continues it by that id. */
const RESUME_BY_SESSION_ID = {
  kind: "supported",
  start: ["--session-id", "{session}"],
  options: ["--resume", "{session}"],
  idPattern: UUID,
} as const satisfies Resume;

const CLAUDE_BASE = {
  family: "claude",
  offers:
    "Anthropic's coding agent; it reads, edits, and runs code in a project and can search and fetch the web",
  packages: ["@anthropic-ai/claude-code"],
  verified: { kind: "lab", version: "2.1.332" },
  command: "claude",
  args: ["-p"],
  // `-p` is a boolean (`--print`); the prompt is positional and commander honours `--`. Given no
  // prompt, it reads piped stdin as the prompt, verbatim.
  prompt: {
    kind: "positional",
    endOfOptions: true,
    onStdin: { args: [], alters: "nothing" },
  },
  modelArgs: ["--model", "{model}"],
  effortArgs: ["--effort", "{effort}"],
  effortLevels: ["low", "medium", "high", "xhigh", "max"],
  modelHint: "Claude model alias or id, such as sonnet or opus.",
  // Today's CLI: scv sets CLAUDE_CONFIG_DIR per home (the seed set none). On macOS Claude Code keys
  // its keychain entry by this folder, so each scv home gets its own entry, never the user's.
  homeEnvironment: [["CLAUDE_CONFIG_DIR", ".claude"]],
  fixedEnvironment: [
    ["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"],
    ["DISABLE_AUTOUPDATER", "1"],
  ],
  removedEnvironment: [
    "ANTHROPIC_*",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
  ],
  fullPermissionArgs: ["--permission-mode", "bypassPermissions"],
  // Its --help (2.1.332): `--permission-mode plan`; `--json-schema <schema>` validates the final
  // output (with -p), which its result carries as `structured_output`, and as its `result` text when
  // the model wrote no text of its own after it (its code).
  review: {
    readOnlyArgs: ["--permission-mode", "plan"],
    schema: { kind: "inline", args: ["--json-schema", "{schema}"] },
  },
  // Lab (2.1.332): as uid 0 it exits "--dangerously-skip-permissions cannot be used with root/sudo
  // privileges" under bypassPermissions unless IS_SANDBOX is "1".
  rootSandboxEnvironment: ["IS_SANDBOX", "1"],
  modeReport: { kind: "claude-init", full: "bypassPermissions", settings: ".claude/settings.json" },
  searchDirs: [".claude/local", ".npm-global/bin"],
  ownConfig: { file: ".claude/settings.json", signsIn: false },
  endpoint: {
    kind: "supported",
    api: "anthropic-messages",
    url: { kind: "env", variable: "ANTHROPIC_BASE_URL" },
    key: "ANTHROPIC_API_KEY",
    // Lab (2.1.332): an `apiKeyHelper` in its settings (where scv keeps the key it holds) is sent
    // too, as a bearer token beside the variable's x-api-key; this empty one keeps it from the endpoint.
    args: ["--settings", '{"apiKeyHelper":""}'],
    // Its ACP adapter starts it with no arguments of scv's, so that helper would reach the endpoint.
    acp: false,
    verified: { kind: "lab", version: "2.1.332" },
  },
  output: { kind: "claude-stream-json", args: ["--output-format", "stream-json", "--verbose"] },
  // Contract suite (2.1.332): `--resume` of a session that is gone.
  resume: { ...RESUME_BY_SESSION_ID, lost: /No conversation found with session ID/ },
  conversationFiles: { dir: ".claude/projects", extension: "jsonl" },
  // Read from the environment as from its settings' `env` block (lab: honoured in the latter).
  retries: {
    kind: "env",
    variable: "CLAUDE_CODE_MAX_RETRIES",
    note: "default 10 retries, backing off to ~40 s apart (a 429 or 529 turn runs for minutes)",
  },
  transport: "process",
  cliTurns: true,
  // Contract suite (test/real/mcp-pass.test.ts): the real CLI called a stdio server's tool given
  // this way; --strict-mcp-config keeps out a project's approved .mcp.json, which it loads without.
  mcpPassing: {
    kind: "args-file",
    format: "mcp-servers",
    args: ["--mcp-config", "{file}"],
    isolate: ["--strict-mcp-config"],
    verified: { kind: "lab", version: "2.1.332" },
  },
  takeover: { kind: "refused", reason: CLAUDE_TAKEOVER },
} as const;

/** Claude Code has no ACP server of its own; its official adapter drives it. */
const CLAUDE_ACP = {
  command: "claude-agent-acp",
  args: [],
  package: "@agentclientprotocol/claude-agent-acp",
  // Its claudeCliPath(): this variable, else the native CLI of its own SDK dependency.
  cliPathVariable: "CLAUDE_CODE_EXECUTABLE",
  full: { kind: "mode", mode: "bypassPermissions" },
  fullEnvironment: [],
  // Contract suite (test/real/acp.test.ts; the adapter is pinned beside the CLIs), driving Claude Code
  // 2.1.332 on Node 22 (0.101.0 declares node >= 22). It runs `claude auth status --json` at each prompt.
  verified: { kind: "lab", version: "0.101.0" },
} as const satisfies AcpLaunch;

export const ADAPTERS = [
  {
    ...CLAUDE_BASE,
    name: "claude",
    product: "Claude Code (API key)",
    offers: `${CLAUDE_BASE.offers}; billed per token to the Anthropic API key scv holds for it`,
    login: { kind: "api-key", store: CLAUDE_KEY_STORE },
    status: { kind: "stored", store: CLAUDE_KEY_STORE },
    logout: { kind: "stored", store: CLAUDE_KEY_STORE },
    credentialFiles: [".anthropic-api-key", ".claude/.credentials.json"],
    acp: CLAUDE_ACP,
  },
  {
    ...CLAUDE_BASE,
    name: "claude-ai",
    product: "Claude Code (Claude subscription)",
    offers: `${CLAUDE_BASE.offers}; runs on the owner's Claude subscription`,
    // Lab: it opens a browser, and without one asks for a pasted code.
    login: { kind: "command", args: ["auth", "login", "--claudeai"], needs: "browser" },
    status: { kind: "stored", store: CLAUDE_ACCOUNT_STORE },
    logout: { kind: "command", args: ["auth", "logout"], needs: "nothing" },
    credentialFiles: [".claude/.credentials.json"],
    acp: CLAUDE_ACP,
  },
  {
    name: "codex",
    product: "Codex",
    family: "gpt",
    offers:
      "OpenAI's coding agent; it reads, edits, and runs code in a project, with live web search under full permissions",
    packages: ["@openai/codex"],
    verified: { kind: "lab", version: "0.171.0" },
    command: "codex",
    args: ["exec"],
    // Today's CLI refuses a folder outside a git repository without it (exec and exec resume).
    headlessArgs: ["--skip-git-repo-check"],
    // `codex exec -- -` reads its prompt from stdin, verbatim ("No prompt provided via stdin." on
    // /dev/null), and so does `exec resume <id> -`.
    prompt: { kind: "positional", endOfOptions: true, onStdin: { args: ["-"], alters: "nothing" } },
    modelArgs: ["-m", "{model}"],
    effortArgs: ["-c", 'model_reasoning_effort="{effort}"'],
    effortLevels: ["minimal", "low", "medium", "high", "xhigh"],
    modelHint: "OpenAI model id from the Codex configuration, such as gpt-5.5.",
    homeEnvironment: [["CODEX_HOME", ""]],
    fixedEnvironment: [],
    removedEnvironment: [
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "OPENAI_ORG_ID",
      "OPENAI_PROJECT_ID",
      "CODEX_*",
    ],
    // `codex exec` has no `--search`; `web_search = "live"` is its config form.
    fullPermissionArgs: ["--dangerously-bypass-approvals-and-sandbox", "-c", 'web_search="live"'],
    // Its --help (0.171.0): `exec resume` has no `--sandbox`, but both take `-c` overrides of the
    // config's `sandbox_mode`; both take `--output-schema <FILE>`, whose reply is the JSON itself.
    review: {
      readOnlyArgs: ["-c", 'sandbox_mode="read-only"'],
      schema: { kind: "file", args: ["--output-schema", "{file}"] },
    },
    modeReport: {
      kind: "codex-rollout",
      dir: "sessions",
      full: "danger-full-access",
      settings: "config.toml",
      settingKey: "sandbox_mode",
    },
    // CODEX_HOME is the agent home itself.
    ownConfig: { file: "config.toml", signsIn: false },
    // The lab's recipe as `-c` overrides: a provider of its own whose `env_key` names the variable,
    // so neither auth.json nor config.toml is touched (lab: the key reached no file of its home).
    endpoint: {
      kind: "supported",
      api: "openai-responses",
      url: { kind: "config-args", flag: "-c", provider: "scv-endpoint" },
      key: "SCV_ENDPOINT_API_KEY",
      args: [],
      acp: false,
      verified: { kind: "lab", version: "0.171.0" },
    },
    searchDirs: [".npm-global/bin"],
    // Lab: it waits for the browser's redirect to localhost:1455; `--device-auth` shows a code instead.
    login: {
      kind: "command",
      args: ["login"],
      needs: "browser",
      deviceCode: ["--device-auth"],
      apiKey: CODEX_STORE,
      import: CODEX_IMPORT,
    },
    status: { kind: "command", args: ["login", "status"], summary: "codex-text" },
    // Signed out, `codex exec` retries the network for minutes; its auth.json tells at once.
    preflight: CODEX_STORE,
    logout: { kind: "command", args: ["logout"], needs: "nothing" },
    output: { kind: "codex-jsonl", args: ["--json"], lastMessageArgs: ["-o", "{file}"] },
    // The thread id arrives in `thread.started`; `exec resume` takes it positionally.
    resume: {
      kind: "supported",
      subcommand: ["resume"],
      options: [],
      positional: ["{session}"],
      idPattern: UUID,
      // Contract suite (0.171.0): `exec resume` of a thread that is gone.
      lost: /no rollout found for thread id/,
    },
    conversationFiles: { dir: "sessions", extension: "jsonl" },
    credentialFiles: ["auth.json"],
    retries: {
      kind: "config",
      file: "config.toml",
      setting: "model_providers.<id>.request_max_retries and stream_max_retries",
      note: "per provider table (defaults 4 and 5); CODEX_HOME is the agent home itself",
    },
    transport: "process",
    acp: {
      command: "codex-acp",
      args: [],
      package: "@agentclientprotocol/codex-acp",
      // Its startAcpServer(): spawns this path with `app-server`, else its own @openai/codex (^0.166.0).
      // The row removes CODEX_*: scv sets it back after the stripping.
      cliPathVariable: "CODEX_PATH",
      full: { kind: "mode", mode: "agent-full-access" },
      fullEnvironment: [["CODEX_CONFIG", '{"web_search":"live"}']],
      // Contract suite (test/real/acp.test.ts; the adapter is pinned beside the CLIs), driving Codex
      // 0.171.0 (CODEX_PATH; its own dependency is @openai/codex ^0.166.0).
      verified: { kind: "lab", version: "2.6.0" },
    },
    cliTurns: true,
    // Contract suite: `-c mcp_servers.<name>.…` made a real turn call the server's tool (for a model
    // it has no metadata for; for others it defers MCP tools behind its tool_search, lab/mcp).
    mcpPassing: {
      kind: "config-args",
      flag: "-c",
      table: "mcp_servers",
      verified: { kind: "lab", version: "0.171.0" },
    },
    takeover: {
      kind: "supported",
      args: ["resume", "{session}"],
      fullArgs: ["--dangerously-bypass-approvals-and-sandbox", "-c", 'web_search="live"'],
      verified: { kind: "lab", version: "0.171.0" },
    },
  },
  {
    name: "grok",
    product: "Grok Build",
    family: "grok",
    offers: "xAI's coding agent; it reads, edits, and runs code in a project and has live web and X search",
    packages: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
    command: "grok",
    args: [],
    prompt: { kind: "flag", args: ["-p"], joined: "--prompt=" },
    modelArgs: ["-m", "{model}"],
    effortArgs: ["--reasoning-effort", "{effort}"],
    effortLevels: ["low", "medium", "high"],
    modelHint: "xAI Grok model id, such as grok-4.7.",
    homeEnvironment: [["GROK_HOME", ".grok"]],
    fixedEnvironment: [["GROK_DISABLE_AUTOUPDATER", "1"]],
    removedEnvironment: ["GROK_*", "XAI_*"],
    // Web search is on unless `--disable-web-search` is passed.
    fullPermissionArgs: ["--always-approve"],
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // The seed's: its profiles live in config.toml under GROK_HOME.
    ownConfig: { file: ".grok/config.toml", signsIn: false },
    endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
    searchDirs: [".grok/bin"],
    login: { kind: "command", args: ["login"], needs: "browser" },
    status: { kind: "stored", store: { kind: "grok", auth: ".grok/auth.json", config: ".grok/config.toml" } },
    logout: { kind: "command", args: ["logout"], needs: "nothing" },
    // `--output-format json` exists but its success shape is unverified.
    output: { kind: "text", args: [] },
    resume: { kind: "unsupported" },
    conversationFiles: null,
    credentialFiles: [".grok/auth.json", ".grok/config.toml"],
    retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
    // Its ACP server is its headless interface; `-p` prints text only.
    transport: "acp",
    acp: {
      command: "grok",
      args: ["agent", "{full}", "stdio"],
      full: { kind: "args", args: ["--always-approve"] },
      fullEnvironment: [],
      verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
    },
    cliTurns: true,
    mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
    takeover: { kind: "unsupported" },
  },
  {
    name: "dsh",
    product: "DeepSeek Harness",
    family: "deepseek",
    offers: "a coding agent on DeepSeek models; it reads, edits, and runs code in a project",
    packages: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
    command: "dsh",
    args: ["--profile", "headless"],
    prompt: { kind: "positional", endOfOptions: false },
    modelArgs: [],
    effortArgs: [],
    effortLevels: [],
    modelHint: "DeepSeek Harness chooses its model from its profile; omit model.",
    homeEnvironment: [["DSH_HOME", ".dsh"]],
    fixedEnvironment: [],
    removedEnvironment: ["DSH_*", "DEEPSEEK_*"],
    fullPermissionArgs: [],
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
    // Bypasses its file sandbox and sets its approval policy to `never`.
    fullPermissionEnvironment: [["DSH_PERMISSION_MODE", "danger-full-access"]],
    modeReport: { kind: "none" },
    // Its published docs: `$DSH_HOME/settings.yaml` (providers, models) beside .credentials.yaml.
    ownConfig: { file: ".dsh/settings.yaml", signsIn: false },
    endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
    searchDirs: [],
    login: { kind: "api-key", store: DSH_STORE },
    status: { kind: "stored", store: DSH_STORE },
    logout: { kind: "stored", store: DSH_STORE },
    output: { kind: "text", args: [] },
    resume: { kind: "unsupported" },
    conversationFiles: null,
    credentialFiles: [".dsh/.credentials.yaml"],
    retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
    // Its ACP server is its headless interface; its headless profile prints text only.
    transport: "acp",
    acp: {
      command: "dsh",
      args: ["--profile", "acp"],
      full: { kind: "none" },
      fullEnvironment: [["DSH_PERMISSION_MODE", "danger-full-access"]],
      verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
    },
    cliTurns: true,
    mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
    takeover: { kind: "unsupported" },
  },
  {
    name: "pi",
    product: "pi",
    // The models are the user's choice among makers'.
    family: null,
    offers:
      "a minimal coding agent (read, write, edit, bash) that runs on many model providers; it has no web search",
    // Renamed from @mariozechner/pi-coding-agent (whose last version is 0.73.1) at 0.81; from 0.81
    // on it needs Node 22.
    packages: ["@earendil-works/pi-coding-agent"],
    verified: { kind: "lab", version: "1.6.0" },
    command: "pi",
    args: ["-p"],
    // Checked with the real CLI: an argument beginning with `@` is a file to attach and one
    // beginning with `-` an option, even after `--`. Piped stdin is read as the prompt, trimmed
    // (`data.trim()`), with the first message argument appended to it unchanged.
    prompt: { kind: "stdin", trims: true },
    modelArgs: ["--model", "{model}"],
    effortArgs: ["--thinking", "{effort}"],
    effortLevels: ["off", "minimal", "low", "medium", "high", "xhigh", "max"],
    modelHint: "pi model pattern or provider/id, such as openai/gpt-5.5.",
    modelsMayHaveSlash: true,
    homeEnvironment: [["PI_CODING_AGENT_DIR", ".pi/agent"]],
    fixedEnvironment: [
      ["PI_SKIP_VERSION_CHECK", "1"],
      ["PI_TELEMETRY", "0"],
    ],
    removedEnvironment: ["PI_*"],
    // pi has no approval prompts or sandbox.
    fullPermissionArgs: [],
    // Its --help (0.73.1): "Read-only mode (no file modifications possible)" is this tool list.
    review: { readOnlyArgs: ["--tools", "read,grep,find,ls"], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // Checked in its code (getSettingsPath); custom providers and their keys go in models.json beside it.
    ownConfig: { file: ".pi/agent/settings.json", signsIn: false },
    // Its models.json is the user's; an extension (`-e`, pi.registerProvider) adds the provider for
    // one turn, reading its API key from the variable it names.
    endpoint: {
      kind: "supported",
      api: "openai-chat",
      url: {
        kind: "extension-file",
        args: ["-e", "{file}"],
        format: "pi-extension",
        provider: "endpoint",
      },
      key: "SCV_ENDPOINT_API_KEY",
      args: [],
      acp: false,
      verified: { kind: "lab", version: "0.73.1" },
    },
    searchDirs: [".npm-global/bin"],
    login: { kind: "interactive", args: [], hint: "run /login and choose a provider, then /quit" },
    status: { kind: "stored", store: PI_STORE },
    logout: { kind: "stored", store: PI_STORE },
    output: { kind: "pi-json", args: ["--mode", "json"] },
    // Today's CLI has no `--session-id` (seed): it reports its id on its first `session` line and
    // resumes with `--session <id>`, matched in the session folder of the same cwd.
    resume: {
      kind: "supported",
      options: ["--session", "{session}"],
      idPattern: /^[0-9a-zA-Z][0-9a-zA-Z_-]{7,127}$/,
    },
    conversationFiles: { dir: ".pi/agent/sessions", extension: "jsonl" },
    credentialFiles: [".pi/agent/auth.json", ".pi/agent/models.json"],
    retries: {
      kind: "config",
      file: ".pi/agent/settings.json",
      setting: "retry.maxRetries (and retry.provider.maxRetries for the provider SDK's own)",
      note: "default 3 agent-level retries, 2 s then 4 s apart",
    },
    transport: "process",
    // pi serves no ACP itself; pi-acp, the adapter the ACP registry lists, runs `pi --mode rpc`.
    acp: {
      command: "pi-acp",
      args: [],
      package: "pi-acp",
      // Its getPiCommand(): this variable, else `pi` on PATH.
      cliPathVariable: "PI_ACP_PI_COMMAND",
      // pi asks before nothing.
      full: { kind: "none" },
      fullEnvironment: [],
      homeSettings: {
        file: ".pi/agent/settings.json",
        values: [
          {
            path: ["quietStartup"],
            value: true,
            why: "without it pi-acp sends a start-up summary (pi's version, its skills and prompts) as an agent message of every new session",
          },
        ],
      },
      // Lab (pinned beside the CLIs; not yet in test/real/acp.test.ts), driving pi
      // 1.6.0 on Node 22.
      verified: { kind: "lab", version: "0.0.34" },
      known:
        "pi-acp needs pi 0.81 or later (@earendil-works/pi-coding-agent, on Node 22): with an older pi its session/new never answers; it runs `npm view` for pi's newest version at each new session, and tells of one newer than the `pi` on PATH in an agent message",
    },
    cliTurns: true,
    mcpPassing: { kind: "unsupported", reason: "pi has no MCP client" },
    // Its help: `--session <path|id>` opens that session, interactively without -p.
    takeover: {
      kind: "supported",
      args: ["--session", "{session}"],
      fullArgs: [],
      verified: { kind: "lab", version: "0.73.1" },
    },
  },
  {
    name: "gemini",
    product: "Gemini CLI",
    family: "gemini",
    offers: "Google's coding agent; it reads, edits, and runs code in a project and has Google Search",
    packages: ["@google/gemini-cli"],
    verified: { kind: "lab", version: "0.61.0" },
    command: "gemini",
    args: [],
    // Today's CLI silently drops `--yolo` and ignores `~/.gemini/.env` in an untrusted folder;
    // `--skip-trust` trusts the cwd for this run only.
    headlessArgs: ["--skip-trust"],
    // Without `-p` and with stdin piped it runs headless on stdin as the prompt, verbatim, cut after
    // 8 MiB (its readStdin's MAX_STDIN_SIZE, with only a debug-log warning).
    prompt: {
      kind: "flag",
      args: ["-p"],
      joined: "--prompt=",
      onStdin: { args: [], alters: "nothing", maxBytes: 8 * 1024 * 1024 },
    },
    modelArgs: ["-m", "{model}"],
    effortArgs: [],
    effortLevels: [],
    modelHint: "Gemini model id, such as gemini-2.5-pro.",
    homeEnvironment: [],
    fixedEnvironment: [["GEMINI_TELEMETRY_ENABLED", "false"]],
    removedEnvironment: [
      "GEMINI_*",
      "GOOGLE_GENAI_*",
      "GOOGLE_API_KEY",
      "GOOGLE_CLOUD_PROJECT",
      "GOOGLE_CLOUD_LOCATION",
      "GOOGLE_APPLICATION_CREDENTIALS",
      // Contract suite: an exported GOOGLE_GEMINI_BASE_URL beat the agent home's .env and sent the
      // turn, with the key scv holds, to that endpoint. Today's CLI also reads these two.
      "GOOGLE_GEMINI_BASE_URL",
      "GOOGLE_VERTEX_BASE_URL",
      "GOOGLE_CLOUD_ACCESS_TOKEN",
    ],
    fullPermissionArgs: ["--yolo"],
    // Its --help (0.61.0): `--approval-mode plan` is "read-only mode"; no structured-output option.
    review: { readOnlyArgs: ["--approval-mode", "plan"], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    ownConfig: { file: ".gemini/settings.json", signsIn: false },
    // Lab (0.61.0): the variables are read over its .env; its headless sign-in check refuses the
    // `gateway` sign-in GOOGLE_GEMINI_BASE_URL alone selects, so the API key's must be chosen.
    endpoint: {
      kind: "supported",
      api: "gemini",
      url: { kind: "env", variable: "GOOGLE_GEMINI_BASE_URL" },
      key: "GEMINI_API_KEY",
      args: [],
      requires: {
        file: ".gemini/settings.json",
        path: ["security", "auth", "selectedType"],
        value: "gemini-api-key",
      },
      acp: false,
      verified: { kind: "lab", version: "0.61.0" },
    },
    searchDirs: [".npm-global/bin"],
    login: {
      kind: "interactive",
      args: [],
      hint: "choose how to sign in (Login with Google, or a Gemini API key), then /quit",
      apiKey: GEMINI_STORE,
    },
    status: { kind: "unchecked" },
    logout: { kind: "interactive", args: [], hint: "sign out with its own command (/auth), then /quit" },
    // Today's CLI has structured output (the seed read text).
    output: { kind: "gemini-stream-json", args: ["--output-format", "stream-json"] },
    // Today's CLI starts a session under a given UUID and resumes it by that id (the seed had none).
    // Contract suite (0.61.0): `--resume` (and session/load) of a session that is gone; the second
    // when the project has none at all.
    resume: {
      ...RESUME_BY_SESSION_ID,
      lost: /Invalid session identifier|No previous sessions found for this project/,
    },
    // Lab: `.gemini/tmp/<project>/chats/session-<minute>-<first 8 of the id>.jsonl` (and a later
    // --resume or session/load begins another of that name under its own minute); a subagent's
    // `chats/<parent id>/<id>.jsonl`.
    conversationFiles: { dir: ".gemini/tmp", extension: "jsonl", idPrefix: 8 },
    credentialFiles: [".gemini/oauth_creds.json", ".gemini/.env"],
    homeSettings: {
      file: ".gemini/settings.json",
      values: [
        {
          // Lab 0.61.0 (its sessionCleanup.ts, on by default): every start deletes each session file
          // with nothing to resume, such as the stub a `--resume` or `session/load` begins under the
          // session's short id, and with it every other file of that short id but its own session's.
          path: ["general", "sessionRetention", "enabled"],
          value: false,
          why: "at every start it deletes each session file it could not resume — such as the one a --resume or ACP session/load of a conversation begins, named by the minute and the session id's first 8 characters — and with it every other file of that short id, the conversation's own among them, so a continued conversation was lost as soon as another Gemini CLI started (and every one after 30 days); scv's own gc removes old transcripts instead",
        },
      ],
    },
    retries: {
      kind: "config",
      file: ".gemini/settings.json",
      setting: "general.maxAttempts (attempts, retries included; at most 10)",
      note: "default 10 attempts, 5 s to 30 s apart: a 429 turn runs for about 5 minutes",
    },
    transport: "process",
    acp: {
      command: "gemini",
      // Today's flag is `--acp` (`--experimental-acp` is deprecated); `--skip-trust` as in `-p` turns.
      args: ["--acp", "--skip-trust"],
      full: { kind: "mode", mode: "yolo" },
      fullEnvironment: [],
      verified: { kind: "lab", version: "0.61.0" },
      // Lab 0.61.0: its session/load first begins a file for the session under the current minute
      // (`session-<minute>-<first 8 of the id>.jsonl`) whose opening lines set the history to none;
      // in the minute the session was saved that is the session's own file, and the load then finds
      // nothing, for good.
      known:
        '0.61.0\'s session/load of a session saved within the same UTC minute wipes its history ("No previous sessions found for this project", for that load and every later one): scv waits for the next minute before it loads such a session',
      loadAfterMinute: {
        dir: ".gemini/tmp",
        name: /^session-(?<minute>\d{4}-\d{2}-\d{2}T\d{2}-\d{2})-(?<session>[0-9A-Za-z_-]{8})\.jsonl?$/,
      },
    },
    cliTurns: true,
    // Contract suite (0.61.0): its one per-run settings file, GEMINI_CLI_SYSTEM_SETTINGS_PATH, is
    // skipped unless root owns it and no folder above it is writable by others.
    mcpPassing: {
      kind: "unsupported",
      reason:
        "it reads a per-run settings file only where root owns it and every folder above it, none writable by group or others, and scv writes a turn's files under TMPDIR (/tmp is writable by all); over ACP session/new takes them",
    },
    // Its help: `-r, --resume` takes a session; the lab resumed one by its init id (headless).
    takeover: {
      kind: "supported",
      args: ["--resume", "{session}"],
      fullArgs: ["--yolo"],
      verified: { kind: "lab", version: "0.61.0" },
    },
  },
  {
    name: "qwen",
    product: "Qwen Code",
    family: "qwen",
    offers: "Alibaba's coding agent on Qwen models; it reads, edits, and runs code in a project",
    packages: ["@qwen-code/qwen-code"],
    verified: { kind: "lab", version: "0.24.4" },
    command: "qwen",
    args: [],
    // Today's CLI deprecates `-p` in favour of the positional prompt. Without either and with stdin
    // piped it runs headless on stdin as the prompt, followed by "\n\n" (`${stdinData}\n\n${input}`).
    prompt: {
      kind: "flag",
      args: ["-p"],
      joined: "--prompt=",
      onStdin: { args: [], alters: "appends-two-newlines" },
    },
    modelArgs: ["-m", "{model}"],
    effortArgs: [],
    effortLevels: [],
    modelHint: "Qwen model id, such as qwen3-coder-plus.",
    // OpenAI-compatible providers name models like `Qwen/Qwen3-Coder-480B-A35B-Instruct` (ModelScope).
    modelsMayHaveSlash: true,
    homeEnvironment: [],
    fixedEnvironment: [["QWEN_TELEMETRY_ENABLED", "false"]],
    removedEnvironment: ["QWEN_*", "DASHSCOPE_*"],
    fullPermissionArgs: ["--yolo"],
    // Its --help (0.24.4): `--approval-mode plan` ("Analyze only, do not modify files or execute
    // commands"); `--json-schema` takes "@path", and its stream's `result` is then the JSON.
    review: {
      readOnlyArgs: ["--approval-mode", "plan"],
      schema: { kind: "file", args: ["--json-schema", "@{file}"] },
    },
    modeReport: { kind: "none" },
    ownConfig: { file: ".qwen/settings.json", signsIn: false },
    // Lab (0.24.4): the variables win over its settings' `env` block, `--auth-type` over its chosen
    // sign-in.
    endpoint: {
      kind: "supported",
      api: "openai-chat",
      url: { kind: "env", variable: "OPENAI_BASE_URL" },
      key: "OPENAI_API_KEY",
      args: ["--auth-type", "openai"],
      acp: false,
      verified: { kind: "lab", version: "0.24.4" },
    },
    searchDirs: [".npm-global/bin"],
    login: {
      kind: "interactive",
      args: [],
      hint: "choose how to sign in (Qwen OAuth, or an OpenAI-compatible key), then /quit",
      apiKey: QWEN_STORE,
    },
    status: { kind: "unchecked" },
    logout: { kind: "interactive", args: [], hint: "sign out with its own command (/auth), then /quit" },
    // Today's CLI has Claude-shaped stream-json (the seed read text).
    output: { kind: "qwen-stream-json", args: ["--output-format", "stream-json"] },
    // Contract suite (0.24.4): `--resume` of a session that is gone (its ACP server's session/load
    // answers resource-not-found).
    resume: { ...RESUME_BY_SESSION_ID, lost: /No saved session found with ID/ },
    // Lab: `.qwen/projects/<cwd slug>/chats/<session-id>.jsonl`; memory beside it is `.md`.
    conversationFiles: { dir: ".qwen/projects", extension: "jsonl" },
    credentialFiles: [".qwen/oauth_creds.json", ".qwen/.env", ".qwen/settings.json"],
    retries: {
      kind: "config",
      file: ".qwen/settings.json",
      setting: "model.generationConfig.maxRetries",
      note: "default 10 retries, 60 s apart, each a run of 7 quick attempts that no setting changes",
    },
    transport: "process",
    acp: {
      command: "qwen",
      // Today's flag is `--acp`; `--experimental-acp` is gone.
      args: ["--acp"],
      full: { kind: "mode", mode: "yolo" },
      fullEnvironment: [],
      homeSettings: {
        file: ".qwen/settings.json",
        values: [
          {
            // Its settings schema: "Show context-aware follow-up suggestions after task completion".
            path: ["ui", "enableFollowupSuggestions"],
            value: false,
            why: "after each turn its ACP server asks the model for a follow-up suggestion (one more request on the conversation), which scv never shows",
          },
        ],
      },
      verified: { kind: "lab", version: "0.24.4" },
    },
    cliTurns: true,
    // Contract suite (0.24.4): a settings file named by QWEN_CODE_SYSTEM_SETTINGS_PATH gave the
    // mock no server.
    mcpPassing: {
      kind: "unsupported",
      reason:
        "no per-run settings file it reads was found; over ACP (--transport acp) session/new takes them",
    },
    // Its help: `-r, --resume <id>` resumes a specific session, interactively without -p.
    takeover: {
      kind: "supported",
      args: ["--resume", "{session}"],
      fullArgs: ["--yolo"],
      verified: { kind: "lab", version: "0.24.4" },
    },
  },
  {
    name: "opencode",
    product: "OpenCode",
    // The models are the user's choice among makers'.
    family: null,
    offers:
      "an open-source coding agent that runs on many model providers; it reads, edits, and runs code in a project",
    packages: ["opencode-ai"],
    verified: { kind: "lab", version: "1.18.33" },
    command: "opencode",
    args: ["run"],
    // `run` with no message reads piped stdin as the message, verbatim.
    prompt: { kind: "positional", endOfOptions: true, onStdin: { args: [], alters: "nothing" } },
    modelArgs: ["-m", "{model}"],
    // Today's `--variant` is its provider-specific reasoning effort.
    effortArgs: ["--variant", "{effort}"],
    effortLevels: ["minimal", "low", "medium", "high", "max"],
    modelHint: "provider/model as OpenCode names it, such as anthropic/claude-sonnet-4-5.",
    modelsMayHaveSlash: true,
    homeEnvironment: [],
    fixedEnvironment: [
      ["OPENCODE_DISABLE_AUTOUPDATE", "1"],
      ["OPENCODE_DISABLE_SHARE", "1"],
    ],
    removedEnvironment: ["OPENCODE_*"],
    // Today's `run --auto` approves what is not explicitly denied (the seed had no switch).
    fullPermissionArgs: ["--auto"],
    // Its --help (1.18.33) has `--agent`; its built-in `plan` agent "Disallows all edit tools" (its code).
    review: { readOnlyArgs: ["--agent", "plan"], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    ownConfig: { file: ".config/opencode/opencode.json", signsIn: true },
    // Lab (1.18.33): OPENCODE_CONFIG_CONTENT is merged over its config files; `{env:…}` reads the key.
    endpoint: {
      kind: "supported",
      api: "openai-chat",
      url: {
        kind: "config-env",
        variable: "OPENCODE_CONFIG_CONTENT",
        format: "opencode-config",
        provider: "endpoint",
      },
      key: "SCV_ENDPOINT_API_KEY",
      args: [],
      acp: false,
      verified: { kind: "lab", version: "1.18.33" },
    },
    searchDirs: [".opencode/bin", ".npm-global/bin"],
    // Lab: both ask at the terminal (which provider, then its key); the lab's recipe writes a
    // provider and its key into its config instead.
    login: { kind: "command", args: ["auth", "login"], needs: "terminal" },
    status: { kind: "unchecked" },
    logout: { kind: "command", args: ["auth", "logout"], needs: "terminal" },
    // Today's CLI has `run --format json` (the seed read text). Its ERROR log lines on stderr are
    // the only word of a model request that cannot connect: it retries those silently.
    output: { kind: "opencode-json", args: ["--format", "json", "--print-logs", "--log-level", "ERROR"] },
    // Today's CLI reports `sessionID` on every line and continues with `-s <id>`.
    resume: {
      kind: "supported",
      options: ["-s", "{session}"],
      idPattern: /^ses_[0-9A-Za-z]{8,64}$/,
    },
    conversationFiles: null,
    credentialFiles: [".local/share/opencode/auth.json"],
    retries: { kind: "none", note: "none: 9 attempts with a fixed backoff, about 11 s" },
    transport: "process",
    acp: {
      command: "opencode",
      args: ["acp"],
      // Lab: it asks only where its own config says `ask`; its ACP server has no switch for that.
      full: { kind: "none" },
      fullEnvironment: [],
      verified: { kind: "lab", version: "1.18.33" },
    },
    cliTurns: true,
    // Contract suite: OPENCODE_CONFIG names a config file merged over its others; its `mcp` servers
    // were offered to the mock.
    mcpPassing: {
      kind: "settings-env",
      variable: "OPENCODE_CONFIG",
      format: "opencode-config",
      verified: { kind: "lab", version: "1.18.33" },
    },
    // Its help: the TUI is the default command, `-s, --session <id>` the session to continue.
    takeover: {
      kind: "supported",
      args: ["-s", "{session}"],
      fullArgs: [],
      verified: { kind: "lab", version: "1.18.33" },
    },
  },
  {
    name: "copilot",
    product: "GitHub Copilot CLI",
    // The models are the user's choice among makers'.
    family: null,
    offers: "GitHub's coding agent; it reads, edits, and runs code in a project and knows GitHub",
    packages: ["@github/copilot"],
    verified: { kind: "lab", version: "1.0.102" },
    command: "copilot",
    args: [],
    headlessArgs: ["--no-auto-update", "--disable-client-telemetry"],
    // Without `-p` and with stdin piped it runs headless on stdin as the prompt, stripped of
    // whitespace at its end.
    prompt: { kind: "flag", args: ["-p"], joined: "--prompt=", onStdin: { args: [], alters: "strips-end" } },
    modelArgs: ["--model", "{model}"],
    // Today's CLI has `--reasoning-effort` (the seed had none).
    effortArgs: ["--reasoning-effort", "{effort}"],
    effortLevels: ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
    modelHint: "a model Copilot CLI offers, such as claude-sonnet-4.5 or gpt-5.",
    homeEnvironment: [["COPILOT_HOME", ".copilot"]],
    fixedEnvironment: [["COPILOT_AUTO_UPDATE", "false"]],
    // Copilot CLI 1.0.102 signs in with the first of COPILOT_GITHUB_TOKEN, GH_TOKEN, GITHUB_TOKEN it
    // finds (its README and its code), and reads GITHUB_COPILOT_*_GITHUB_TOKEN under Actions: all
    // are its credentials, so no agent gets them from the user's shell.
    removedEnvironment: [
      "COPILOT_*",
      "GH_COPILOT_TOKEN",
      "COPILOT_GITHUB_TOKEN",
      "GH_TOKEN",
      "GITHUB_TOKEN",
      "GITHUB_COPILOT_*",
    ],
    // Without it a prompt run denies every tool that needs approval.
    fullPermissionArgs: ["--allow-all-tools"],
    // Its --help (1.0.102): `--deny-tool` takes tools it may not use, `write` and `shell` among them.
    review: { readOnlyArgs: ["--deny-tool=write", "--deny-tool=shell"], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // Checked in its code: user settings in $COPILOT_HOME/settings.json (MCP servers in mcp-config.json).
    ownConfig: { file: ".copilot/settings.json", signsIn: false },
    searchDirs: [".npm-global/bin"],
    login: { kind: "interactive", args: [], hint: "run /login, then /exit" },
    // Its README: COPILOT_PROVIDER_BASE_URL and COPILOT_PROVIDER_API_KEY select bring-your-own-key
    // mode, needing no GitHub sign-in (the contract suite's sign-in, over ACP too).
    endpoint: {
      kind: "supported",
      api: "openai-chat",
      url: { kind: "env", variable: "COPILOT_PROVIDER_BASE_URL" },
      key: "COPILOT_PROVIDER_API_KEY",
      args: [],
      acp: true,
      verified: { kind: "lab", version: "1.0.102" },
    },
    status: { kind: "unchecked" },
    // Today's CLI has no `logout` command.
    logout: { kind: "interactive", args: [], hint: "run /logout, then /exit" },
    // Today's CLI has `--output-format json` (the seed read text).
    output: { kind: "copilot-json", args: ["--output-format", "json"] },
    // Today's CLI sets a new session's UUID with `--session-id` and resumes with `--resume`.
    resume: {
      ...RESUME_BY_SESSION_ID,
      // Its JSON stream names the session only in its last line, which a stopped turn never prints.
      sessionPath: ".copilot/session-state/{session}",
    },
    // Lab: a folder per session, `.copilot/session-state/<id>/`, holding events.jsonl beside
    // workspace.yaml, checkpoints and locks; removing only the .jsonl would leave half a session, so
    // `conversations rm --transcript` and gc remove the whole folder (`sessionPath`).
    conversationFiles: null,
    credentialFiles: [],
    retries: { kind: "none", note: "none: 5 retries honouring retry-after, 8-15 s" },
    transport: "process",
    acp: {
      command: "copilot",
      // As in `-p` turns: no update check, no telemetry.
      args: ["--acp", "--no-auto-update", "--disable-client-telemetry"],
      // Contract suite: with a provider of the user's own it exits before `initialize` without one
      // ("BYOK providers require an explicit model").
      modelArgs: ["--model", "{model}"],
      // Lab: a `permissions` option, not a mode (its `autopilot` mode also makes it go on by itself).
      full: { kind: "option", option: "allow_all", value: "on" },
      fullEnvironment: [],
      // Lab: 10144 → 20331 → 30561 input tokens over three prompts of one session.
      cumulativeUsage: true,
      // Lab: a failed prompt is answered end_turn after a chunk `Error: …`; retries say `Info: …`.
      textNotices: { error: /^Error: /, info: /^Info: / },
      verified: { kind: "lab", version: "1.0.102" },
    },
    cliTurns: true,
    // Its --help (1.0.102): `--additional-mcp-config @<file>` adds servers for the session, and
    // `--disable-builtin-mcps` turns off its own GitHub MCP servers, which carry the GitHub sign-in.
    // Contract suite: the file's servers were offered to the mock.
    mcpPassing: {
      kind: "args-file",
      format: "copilot-mcp-servers",
      args: ["--additional-mcp-config", "@{file}"],
      isolate: ["--disable-builtin-mcps"],
      verified: { kind: "lab", version: "1.0.102" },
    },
    // Its help: `-r, --resume [<value>]` resumes a session by id in its interactive UI.
    takeover: {
      kind: "supported",
      args: ["--resume", "{session}"],
      fullArgs: ["--allow-all-tools"],
      verified: { kind: "lab", version: "1.0.102" },
    },
  },
  {
    name: "cursor",
    product: "Cursor CLI",
    // The models are the user's choice among makers'.
    family: null,
    offers: "Cursor's coding agent; it reads, edits, and runs code in a project",
    packages: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
    command: "cursor-agent",
    args: ["-p"],
    prompt: { kind: "positional", endOfOptions: false },
    modelArgs: ["--model", "{model}"],
    effortArgs: [],
    effortLevels: [],
    modelHint: "a model Cursor offers, such as sonnet-4.5 or gpt-5.",
    homeEnvironment: [],
    fixedEnvironment: [],
    removedEnvironment: ["CURSOR_*"],
    // Runs commands without asking.
    fullPermissionArgs: ["--force"],
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // Its docs: $XDG_CONFIG_HOME/cursor/cli-config.json on Linux when XDG_CONFIG_HOME is set, as scv sets it.
    ownConfig: { file: ".config/cursor/cli-config.json", signsIn: false },
    endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
    searchDirs: [".cursor/bin"],
    login: { kind: "command", args: ["login"], needs: "browser" },
    status: { kind: "unchecked" },
    logout: { kind: "command", args: ["logout"], needs: "nothing" },
    output: { kind: "cursor-stream-json", args: ["--output-format", "stream-json"] },
    // The chat id arrives with its events; `--resume <id>` continues it.
    resume: {
      kind: "supported",
      options: ["--resume", "{session}"],
      idPattern: UUID,
    },
    conversationFiles: null,
    credentialFiles: [],
    retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
    transport: "process",
    acp: {
      command: "cursor-agent",
      args: ["acp"],
      full: { kind: "none" },
      fullEnvironment: [],
      verified: { kind: "unverified", reason: "not on npm; the launch is its documented one" },
    },
    cliTurns: true,
    mcpPassing: { kind: "unsupported", reason: "not on npm; no way to pass MCP servers was verified" },
    takeover: { kind: "unsupported" },
  },
  {
    name: "amp",
    product: "Amp",
    // Amp chooses its own models.
    family: null,
    offers: "Sourcegraph's coding agent; it reads, edits, and runs code in a project and can search the web",
    // The newest @ampcode/cli had no Linux binary in the registry when checked.
    packages: ["@sourcegraph/amp"],
    // Its `amp` bin is @ampcode/cli's (the new name, a dependency of the same version).
    binPackages: ["@ampcode/cli"],
    verified: { kind: "lab", version: "0.0.1790142911-g7618fb" },
    command: "amp",
    args: [],
    prompt: { kind: "flag", args: ["-x"], joined: "--execute=" },
    // Amp chooses its own models.
    modelArgs: [],
    effortArgs: [],
    effortLevels: [],
    modelHint: "Amp chooses its own model; omit model.",
    homeEnvironment: [],
    fixedEnvironment: [],
    removedEnvironment: ["AMP_*"],
    // Accepted though not in `--help`; the documented form is `"amp.dangerouslyAllowAll": true`.
    fullPermissionArgs: ["--dangerously-allow-all"],
    // Its --help has no read-only switch (its permissions are settings) and no structured output.
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // Its help text: ~/.config/amp/settings.json, keys prefixed "amp.".
    ownConfig: { file: ".config/amp/settings.json", signsIn: false },
    endpoint: {
      kind: "unsupported",
      reason: "its model traffic goes through the Amp service, not to a model API",
    },
    searchDirs: [".amp/bin", ".npm-global/bin"],
    login: { kind: "command", args: ["login"], needs: "browser" },
    status: { kind: "unchecked" },
    logout: { kind: "command", args: ["logout"], needs: "nothing" },
    output: { kind: "amp-stream-json", args: ["--stream-json"] },
    // Its thread continuation (`threads continue`) could not be verified signed out.
    resume: { kind: "unsupported" },
    conversationFiles: null,
    credentialFiles: [],
    retries: {
      kind: "none",
      note: "no retry setting known (its model traffic goes through the Amp service)",
    },
    transport: "process",
    acp: null,
    cliTurns: true,
    // Its --help has `--mcp-config` (JSON or a file), merged with its own settings; not verified.
    mcpPassing: { kind: "unsupported", reason: "its --mcp-config merges with its settings; not verified" },
    takeover: { kind: "unsupported" },
  },
  {
    name: "kimi",
    product: "Kimi Code",
    family: "kimi",
    offers: "Moonshot AI's coding agent on Kimi models; it reads, edits, and runs code in a project",
    packages: [],
    verified: { kind: "unverified", reason: "not on npm; the seed's facts are kept" },
    command: "kimi",
    args: [],
    prompt: { kind: "positional", endOfOptions: false },
    modelArgs: [],
    effortArgs: [],
    effortLevels: [],
    modelHint: "a model its ACP server lists.",
    homeEnvironment: [],
    fixedEnvironment: [],
    removedEnvironment: ["KIMI_*", "MOONSHOT_*"],
    fullPermissionArgs: [],
    review: { readOnlyArgs: [], schema: { kind: "prompt" } },
    modeReport: { kind: "none" },
    // Its docs: ~/.kimi-code/config.toml (providers, models and keys).
    ownConfig: { file: ".kimi-code/config.toml", signsIn: false },
    endpoint: { kind: "unsupported", reason: "not on npm; no way to set its endpoint was verified" },
    searchDirs: [".kimi-code/bin"],
    login: {
      kind: "interactive",
      args: [],
      hint: "run /login, then /exit",
      deviceCode: ["login"],
    },
    status: { kind: "unchecked" },
    logout: { kind: "interactive", args: [], hint: "sign out with its own command, then /exit" },
    output: { kind: "text", args: [] },
    resume: { kind: "unsupported" },
    conversationFiles: null,
    credentialFiles: [],
    retries: { kind: "none", note: "no retry setting known (not on npm, not verified)" },
    transport: "acp",
    // Its one-prompt mode is unverified, so it runs over ACP only.
    acp: {
      command: "kimi",
      args: ["acp"],
      full: { kind: "none" },
      fullEnvironment: [],
      verified: { kind: "unverified", reason: "not on npm; the seed's launch is kept" },
    },
    cliTurns: false,
    mcpPassing: { kind: "unsupported", reason: "ACP only: its servers go in session/new" },
    takeover: { kind: "unsupported" },
  },
  cline,
  kilo,
  droid,
  auggie,
  qoder,
  crush,
] as const satisfies readonly AdapterDescriptor[];

export type AgentName = (typeof ADAPTERS)[number]["name"];

export const AGENT_NAMES: readonly AgentName[] = ADAPTERS.map((entry) => entry.name);

/** The shipped row named `name`; undefined for any other name. */
export function shippedAdapter(name: string): AdapterDescriptor | undefined {
  return (ADAPTERS as readonly AdapterDescriptor[]).find((entry) => entry.name === name);
}

// The rows of the user's config (`[agents.<name>]`): scv's entry point hands over how to read them,
// and they are read on the first lookup, so that a command that looks no agent up never reads the
// config (and a malformed one fails the commands that do, as before). The table does not import the
// config: the config imports the table.
let configuredRows: () => readonly AdapterDescriptor[] = () => [];
let cachedRows: readonly AdapterDescriptor[] | undefined;
let cachedTable: readonly AdapterDescriptor[] = ADAPTERS;

/** Makes `rows` (read once, on the first lookup) the config's rows of every later lookup. */
export function useConfiguredAgents(rows: () => readonly AdapterDescriptor[]): void {
  configuredRows = rows;
  cachedRows = undefined;
  cachedTable = ADAPTERS;
}

/** Every agent scv knows: the shipped rows, each replaced in place by a config row of its name
 * (`extends` of itself, or `replace = true`), then the config's own agents. */
export function allAdapters(): readonly AdapterDescriptor[] {
  if (cachedRows === undefined) {
    const rows = configuredRows();
    const byName = new Map(rows.map((row) => [row.name, row]));
    const shipped = (ADAPTERS as readonly AdapterDescriptor[]).map(
      (entry) => byName.get(entry.name) ?? entry,
    );
    const added = rows.filter((row) => shippedAdapter(row.name) === undefined);
    cachedTable = rows.length === 0 ? ADAPTERS : [...shipped, ...added];
    cachedRows = rows;
  }
  return cachedTable;
}

/** The descriptor for `name`, such as "codex" (the config's row where it defines one); undefined for
 * an unknown name. */
export function adapter(name: string): AdapterDescriptor | undefined {
  return allAdapters().find((entry) => entry.name === name);
}

export function unreachable(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}
