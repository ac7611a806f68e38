// The exact command line of a first and a continued turn for every adapter. The expected arrays
// are checked against today's CLI help (lab/help/<cli>.txt) and the lab's real runs; the fact each
// one rests on is quoted next to it.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { ScvError } from "../../src/errors.js";
import { type AgentCommand, type ArgvRequest, buildAgentCommand } from "../../src/transport/argv.js";

const UUID = "3f0c9a52-6a53-4a8e-9c1e-2f7d5b8e4a10";
const CODEX_THREAD = "01a23648-e58b-7653-a8e1-80985ae37ee1";
const PI_SESSION = "01a23649-3e3c-7680-be58-664ee3a8aca0";
const OPENCODE_SESSION = "ses_dc9b277faffepcwmd73pn0Rq2h";

function entry(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(`no adapter ${name}`);
  return found;
}

/** The command line and stdin; where the policy's arguments go (a reviewer's read-only ones' place)
 * is tested on its own below. */
function command(name: string, request: Omit<ArgvRequest, "entry">): Omit<AgentCommand, "policyAt"> {
  const { policyAt: _policyAt, ...built } = buildAgentCommand({ entry: entry(name), ...request });
  return built;
}

/** The command line: the executable, then the arguments. */
function argv(name: string, request: Omit<ArgvRequest, "entry">): string[] {
  return [entry(name).command, ...command(name, request).args];
}

/** What the CLI gets on stdin; undefined when stdin stays closed. */
function stdin(name: string, request: Omit<ArgvRequest, "entry">): string | undefined {
  return command(name, request).stdin;
}

function usageError(run: () => unknown): ScvError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScvError) return error;
    throw error;
  }
  throw new Error("expected a usage error");
}

describe("first and continued turn, per adapter (policy auto, model and effort given)", () => {
  // claude --help: `Usage: claude [options] [command] [prompt]`; `-p, --print` is boolean;
  // `--output-format stream-json` with -p requires `--verbose` (lab: stream-json-without-verbose);
  // `--effort <level> (low, medium, high, xhigh, max)`; `--session-id <uuid>`; `-r, --resume [value]`;
  // `--permission-mode` choice `bypassPermissions`.
  for (const name of ["claude", "claude-ai"]) {
    it(name, () => {
      const common = { policy: "auto", model: "sonnet", effort: "high" } as const;
      expect(argv(name, { ...common, prompt: "Say hi", session: { kind: "start", id: UUID } })).toEqual([
        "claude",
        "-p",
        "--permission-mode",
        "bypassPermissions",
        "--output-format",
        "stream-json",
        "--verbose",
        "--model",
        "sonnet",
        "--effort",
        "high",
        "--session-id",
        UUID,
        "Say hi",
      ]);
      expect(
        argv(name, { ...common, prompt: "Say hi again", session: { kind: "continue", id: UUID } }),
      ).toEqual([
        "claude",
        "-p",
        "--permission-mode",
        "bypassPermissions",
        "--output-format",
        "stream-json",
        "--verbose",
        "--model",
        "sonnet",
        "--effort",
        "high",
        "--resume",
        UUID,
        "Say hi again",
      ]);
    });
  }

  it("codex", () => {
    // codex exec --help: `codex exec [OPTIONS] [PROMPT]`, `--skip-git-repo-check`, `--json`,
    // `-o, --output-last-message <FILE>`, `-m`, `-c key=value` (TOML value),
    // `--dangerously-bypass-approvals-and-sandbox`. codex exec resume --help:
    // `codex exec resume [OPTIONS] [SESSION_ID] [PROMPT]` with the same options.
    const common = {
      policy: "auto",
      model: "gpt-5.5",
      effort: "high",
      lastMessageFile: "/h/last.txt",
    } as const;
    const options = [
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      "-c",
      'web_search="live"',
      "--json",
      "-o",
      "/h/last.txt",
      "-m",
      "gpt-5.5",
      "-c",
      'model_reasoning_effort="high"',
    ];
    expect(argv("codex", { ...common, prompt: "Say hi" })).toEqual(["codex", "exec", ...options, "Say hi"]);
    expect(
      argv("codex", { ...common, prompt: "Say hi again", session: { kind: "continue", id: CODEX_THREAD } }),
    ).toEqual(["codex", "exec", "resume", ...options, CODEX_THREAD, "Say hi again"]);
  });

  it("pi", () => {
    // pi --help: `--print, -p`, `--mode <mode>` (json), `--model <pattern>`, `--thinking <level>`
    // (off … xhigh), `--session <path|id>`; no --session-id (lab: it picks its own id). The prompt
    // goes on stdin (pi 0.73.1 and 1.6.0 read piped stdin as the prompt in print and json mode).
    const common = { policy: "auto", model: "openai/gpt-5.5", effort: "high" } as const;
    const options = ["-p", "--mode", "json", "--model", "openai/gpt-5.5", "--thinking", "high"];
    expect(command("pi", { ...common, prompt: "Say hi" })).toEqual({
      args: options,
      stdin: "Say hi",
    });
    const again = {
      ...common,
      prompt: "Say hi again",
      session: { kind: "continue", id: PI_SESSION },
    } as const;
    expect(command("pi", again)).toEqual({
      args: [...options, "--session", PI_SESSION],
      stdin: "Say hi again",
    });
  });

  it("gemini", () => {
    // gemini --help: `-p, --prompt` [string], `--skip-trust`, `-y, --yolo`, `-o, --output-format`
    // (stream-json), `-m, --model`, `--session-id` (new session with a UUID), `-r, --resume`
    // (lab: resumed by the init event's session_id). No effort option.
    const common = { policy: "auto", model: "gemini-2.5-pro" } as const;
    const options = ["--skip-trust", "--yolo", "--output-format", "stream-json", "-m", "gemini-2.5-pro"];
    expect(argv("gemini", { ...common, prompt: "Say hi", session: { kind: "start", id: UUID } })).toEqual([
      "gemini",
      ...options,
      "--session-id",
      UUID,
      "-p",
      "Say hi",
    ]);
    expect(
      argv("gemini", { ...common, prompt: "Say hi again", session: { kind: "continue", id: UUID } }),
    ).toEqual(["gemini", ...options, "--resume", UUID, "-p", "Say hi again"]);
  });

  it("qwen", () => {
    // qwen --help: `-p, --prompt` (deprecated but working, lab ran it), `-y, --yolo`,
    // `-o, --output-format` (stream-json), `-m`, `--session-id`, `-r, --resume`.
    const common = { policy: "auto", model: "qwen3-coder-plus" } as const;
    const options = ["--yolo", "--output-format", "stream-json", "-m", "qwen3-coder-plus"];
    expect(argv("qwen", { ...common, prompt: "Say hi", session: { kind: "start", id: UUID } })).toEqual([
      "qwen",
      ...options,
      "--session-id",
      UUID,
      "-p",
      "Say hi",
    ]);
    expect(
      argv("qwen", { ...common, prompt: "Say hi again", session: { kind: "continue", id: UUID } }),
    ).toEqual(["qwen", ...options, "--resume", UUID, "-p", "Say hi again"]);
  });

  it("opencode", () => {
    // opencode run --help: `opencode run [message..]`, `--auto`, `--format json`, `-m provider/model`,
    // `--variant` (reasoning effort), `-s, --session` (session id to continue); `--print-logs
    // --log-level ERROR` puts its failed model requests on stderr, which it never reports on stdout.
    const common = { policy: "auto", model: "anthropic/claude-sonnet-4-5", effort: "high" } as const;
    const options = [
      "run",
      "--auto",
      "--format",
      "json",
      "--print-logs",
      "--log-level",
      "ERROR",
      "-m",
      "anthropic/claude-sonnet-4-5",
      "--variant",
      "high",
    ];
    expect(argv("opencode", { ...common, prompt: "Say hi" })).toEqual(["opencode", ...options, "Say hi"]);
    expect(
      argv("opencode", {
        ...common,
        prompt: "Say hi again",
        session: { kind: "continue", id: OPENCODE_SESSION },
      }),
    ).toEqual(["opencode", ...options, "-s", OPENCODE_SESSION, "Say hi again"]);
  });

  it("copilot", () => {
    // copilot --help: `-p, --prompt <text>`, `--allow-all-tools`, `--output-format json`,
    // `--model`, `--reasoning-effort` (none … max), `--session-id <id>` (sets a new session's UUID),
    // `-r, --resume [<value>]`; lab runs passed `--no-auto-update --disable-client-telemetry`.
    const common = { policy: "auto", model: "gpt-5", effort: "high" } as const;
    const options = [
      "--no-auto-update",
      "--disable-client-telemetry",
      "--allow-all-tools",
      "--output-format",
      "json",
      "--model",
      "gpt-5",
      "--reasoning-effort",
      "high",
    ];
    expect(argv("copilot", { ...common, prompt: "Say hi", session: { kind: "start", id: UUID } })).toEqual([
      "copilot",
      ...options,
      "--session-id",
      UUID,
      "-p",
      "Say hi",
    ]);
    expect(
      argv("copilot", { ...common, prompt: "Say hi again", session: { kind: "continue", id: UUID } }),
    ).toEqual(["copilot", ...options, "--resume", UUID, "-p", "Say hi again"]);
  });

  it("amp", () => {
    // amp --help: `-x, --execute [message]`, `--stream-json`; `--dangerously-allow-all` accepted
    // (lab). No model or effort options; continuing is unverified, so unsupported.
    expect(argv("amp", { policy: "auto", prompt: "Say hi" })).toEqual([
      "amp",
      "--dangerously-allow-all",
      "--stream-json",
      "-x",
      "Say hi",
    ]);
    expect(
      usageError(() => argv("amp", { policy: "auto", prompt: "x", session: { kind: "continue", id: UUID } }))
        .code,
    ).toBe("RESUME_UNSUPPORTED");
  });

  // Not on npm, so not checked in the lab: the seed's grammar is kept.
  it("cursor (unverified)", () => {
    const common = { policy: "auto", model: "gpt-5" } as const;
    const options = ["-p", "--force", "--output-format", "stream-json", "--model", "gpt-5"];
    expect(argv("cursor", { ...common, prompt: "Say hi" })).toEqual(["cursor-agent", ...options, "Say hi"]);
    expect(
      argv("cursor", { ...common, prompt: "Say hi again", session: { kind: "continue", id: UUID } }),
    ).toEqual(["cursor-agent", ...options, "--resume", UUID, "Say hi again"]);
  });

  it("grok (unverified)", () => {
    expect(argv("grok", { policy: "auto", model: "grok-4.7", effort: "high", prompt: "Say hi" })).toEqual([
      "grok",
      "--always-approve",
      "-m",
      "grok-4.7",
      "--reasoning-effort",
      "high",
      "-p",
      "Say hi",
    ]);
    expect(
      usageError(() => argv("grok", { policy: "auto", prompt: "x", session: { kind: "continue", id: UUID } }))
        .code,
    ).toBe("RESUME_UNSUPPORTED");
  });

  it("dsh (unverified): full permissions are an environment variable, not an argument", () => {
    expect(argv("dsh", { policy: "auto", prompt: "Say hi" })).toEqual([
      "dsh",
      "--profile",
      "headless",
      "Say hi",
    ]);
  });

  it("kimi (unverified): no one-turn mode; the argv is only its command and prompt", () => {
    expect(argv("kimi", { policy: "default", prompt: "Say hi" })).toEqual(["kimi", "Say hi"]);
  });
});

describe("policy default", () => {
  it("passes none of the full-permission switches", () => {
    for (const found of ADAPTERS as readonly AdapterDescriptor[]) {
      const { args } = buildAgentCommand({ entry: found, policy: "default", prompt: "hi" });
      for (const flag of found.fullPermissionArgs) {
        if (flag.startsWith("-")) expect(args, found.name).not.toContain(flag);
      }
    }
  });

  it("leaves out model and effort when none is given", () => {
    expect(argv("claude", { policy: "default", prompt: "hi" })).toEqual([
      "claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "hi",
    ]);
  });
});

// Checked with the real CLIs (claude 2.1.332, codex 0.171.0, opencode 1.18.33, gemini 0.61.0,
// qwen 0.24.4, copilot 1.0.102): `claude -p … -- "-x say hi"`, `codex exec … -- "-x say hi"`,
// `codex exec resume … -- <id> "-y…"` and `opencode run … -- "-x say hi"` reach the model;
// `"--prompt=-x say hi"` does for gemini, qwen and copilot, while `-p "-x say hi"` fails on all three.
describe("a prompt starting with '-'", () => {
  it("goes after `--` for a positional prompt whose CLI honours it", () => {
    expect(argv("claude", { policy: "default", prompt: "-v means verbose?" }).slice(-2)).toEqual([
      "--",
      "-v means verbose?",
    ]);
    // The positional session id follows `--` too: both are positionals.
    expect(
      argv("codex", {
        policy: "default",
        prompt: "--help",
        session: { kind: "continue", id: CODEX_THREAD },
      }).slice(-3),
    ).toEqual(["--", CODEX_THREAD, "--help"]);
  });

  it("is also written to stdin when it is a lone `-` and the CLI reads that as 'the prompt is on stdin'", () => {
    // codex 0.171.0: `codex exec … -- -` with stdin /dev/null fails with "No prompt provided via
    // stdin."; with `-` on stdin the model gets "-". claude and opencode take `-` as the prompt itself.
    expect(command("codex", { policy: "default", prompt: "-" }).args.slice(-2)).toEqual(["--", "-"]);
    expect(stdin("codex", { policy: "default", prompt: "-" })).toBe("-");
    expect(
      command("codex", { policy: "default", prompt: "-", session: { kind: "continue", id: CODEX_THREAD } }),
    ).toMatchObject({ args: expect.arrayContaining(["--", CODEX_THREAD, "-"]), stdin: "-" });
    expect(stdin("codex", { policy: "default", prompt: "-x" })).toBeUndefined();
    expect(command("claude", { policy: "default", prompt: "-" })).toMatchObject({ stdin: undefined });
    expect(argv("claude", { policy: "default", prompt: "-" }).slice(-2)).toEqual(["--", "-"]);
  });

  it("is glued to the flag as one element for a flag prompt", () => {
    expect(argv("gemini", { policy: "default", prompt: "-x" }).slice(-1)).toEqual(["--prompt=-x"]);
    expect(argv("qwen", { policy: "default", prompt: "-x" }).slice(-1)).toEqual(["--prompt=-x"]);
    expect(argv("copilot", { policy: "default", prompt: "-x" }).slice(-1)).toEqual(["--prompt=-x"]);
    expect(argv("opencode", { policy: "default", prompt: "-x" }).slice(-2)).toEqual(["--", "-x"]);
    expect(argv("amp", { policy: "default", prompt: "--dangerously-allow-all" }).slice(-1)).toEqual([
      "--execute=--dangerously-allow-all",
    ]);
  });

  it("is refused (exit 2) where the CLI has no `--`", () => {
    const error = usageError(() => argv("cursor", { policy: "default", prompt: "-rf" }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain("Cursor CLI would read a prompt starting with '-' as an option");
  });

  it("a prompt is always exactly one element, whatever it contains", () => {
    const prompt = `say "hi"; rm -rf / $(whoami) \`id\`\n--yolo`;
    expect(argv("claude", { policy: "default", prompt }).at(-1)).toBe(prompt);
    expect(argv("qwen", { policy: "default", prompt }).slice(-2)).toEqual(["-p", prompt]);
  });

  it("refuses an empty prompt", () => {
    expect(usageError(() => argv("claude", { policy: "default", prompt: "  \n" })).message).toContain(
      "the prompt is empty",
    );
  });
});

describe("model and effort values", () => {
  it("accepts the shapes CLIs use, as one element each", () => {
    for (const model of [
      "sonnet",
      "gpt-5.5",
      "openai/gpt-5.5",
      "sonnet:high",
      "claude-opus-4@20250514",
      "m[1m]",
    ]) {
      expect(argv("pi", { policy: "default", prompt: "hi", model })).toContain(model);
    }
  });

  it("refuses malformed model ids with exit 2", () => {
    for (const model of ["", "gpt 5", "a".repeat(129), "--yolo", "m;rm", "m\nx", "$(x)"]) {
      const error = usageError(() => argv("claude", { policy: "default", prompt: "hi", model }));
      expect(error.exitCode, model).toBe(2);
    }
    expect(argv("claude", { policy: "default", prompt: "hi", model: "a".repeat(128) })).toContain(
      "a".repeat(128),
    );
  });

  it("refuses a model for an agent that takes none, with its hint", () => {
    expect(usageError(() => argv("amp", { policy: "default", prompt: "hi", model: "x" })).message).toBe(
      "Amp takes no model — Amp chooses its own model; omit model.",
    );
  });

  it("fills the effort into Codex's TOML override as one element", () => {
    const args = argv("codex", { policy: "default", prompt: "hi", effort: "xhigh" });
    expect(args).toContain('model_reasoning_effort="xhigh"');
  });

  it("refuses an effort the agent does not accept, naming the accepted ones", () => {
    expect(
      usageError(() => argv("claude", { policy: "default", prompt: "hi", effort: "extreme" })).message,
    ).toBe(
      "'extreme' is not an effort level of Claude Code (API key) — use one of: low, medium, high, xhigh, max",
    );
    expect(usageError(() => argv("codex", { policy: "default", prompt: "hi", effort: "hgih" })).message).toBe(
      "'hgih' is not an effort level of Codex — did you mean high? use one of: minimal, low, medium, high, xhigh",
    );
  });

  it("refuses any effort for an agent without effort arguments", () => {
    const error = usageError(() => argv("gemini", { policy: "default", prompt: "hi", effort: "high" }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe("Gemini CLI takes no effort level — omit --effort");
  });
});

describe("session ids", () => {
  it("refuses an id that does not have the CLI's documented shape", () => {
    for (const id of ["--yolo", "../../etc", "not-a-uuid", `${UUID}\n`]) {
      const error = usageError(() =>
        argv("claude", { policy: "default", prompt: "hi", session: { kind: "continue", id } }),
      );
      expect(error.exitCode, id).toBe(2);
    }
    expect(
      usageError(() =>
        argv("opencode", { policy: "default", prompt: "hi", session: { kind: "continue", id: UUID } }),
      ).exitCode,
    ).toBe(2);
  });
});

// A single argv element of 128 KiB or more is refused by Linux (E2BIG). Checked with the pinned CLIs
// against a loopback mock and a 300 KiB prompt (test/real/prompt-verbatim.test.ts): given no prompt
// argument and a piped stdin, claude -p, gemini, qwen, opencode run and copilot take stdin as the
// prompt, and `codex exec -` too; qwen appends two newlines to it, copilot strips whitespace at its end.
describe("a prompt too large for one argument", () => {
  const LARGE = `-x @foo ${"ünïcödé ✓ ".repeat(30_000)}\n`;
  const large = (name: string, session?: ArgvRequest["session"]) =>
    command(name, { policy: "default", prompt: LARGE, ...(session === undefined ? {} : { session }) });

  it("goes on stdin, in place of the prompt's argument, for each CLI that reads it there", () => {
    const cases: readonly [string, ArgvRequest["session"] | undefined, string[]][] = [
      [
        "claude",
        { kind: "start", id: UUID },
        ["-p", "--output-format", "stream-json", "--verbose", "--session-id", UUID],
      ],
      [
        "claude",
        { kind: "continue", id: UUID },
        ["-p", "--output-format", "stream-json", "--verbose", "--resume", UUID],
      ],
      ["codex", undefined, ["exec", "--skip-git-repo-check", "--json", "--", "-"]],
      [
        "codex",
        { kind: "continue", id: CODEX_THREAD },
        ["exec", "resume", "--skip-git-repo-check", "--json", "--", CODEX_THREAD, "-"],
      ],
      [
        "gemini",
        { kind: "start", id: UUID },
        ["--skip-trust", "--output-format", "stream-json", "--session-id", UUID],
      ],
      ["qwen", { kind: "continue", id: UUID }, ["--output-format", "stream-json", "--resume", UUID]],
      [
        "opencode",
        { kind: "continue", id: OPENCODE_SESSION },
        ["run", "--format", "json", "--print-logs", "--log-level", "ERROR", "-s", OPENCODE_SESSION],
      ],
      [
        "copilot",
        { kind: "start", id: UUID },
        ["--no-auto-update", "--disable-client-telemetry", "--output-format", "json", "--session-id", UUID],
      ],
    ];
    for (const [name, session, args] of cases) {
      expect(large(name, session), `${name} ${session?.kind ?? "first"}`).toEqual({ args, stdin: LARGE });
    }
  });

  it("switches at 128 KiB exactly, counted in bytes", () => {
    const under = "é".repeat(65_535); // 131,070 bytes
    expect(command("claude", { policy: "default", prompt: under })).toMatchObject({ stdin: undefined });
    expect(command("claude", { policy: "default", prompt: `${under}xx` })).toMatchObject({
      stdin: `${under}xx`,
    });
    // `--prompt=` glued to a prompt beginning with `-` makes the argument longer than the prompt.
    const dashed = `-${"x".repeat(131_062)}`;
    expect(command("gemini", { policy: "default", prompt: dashed })).toMatchObject({ stdin: dashed });
  });

  it("is refused (exit 2), naming the agent and the limit, where the CLI has no way to read it", () => {
    for (const found of ADAPTERS as readonly AdapterDescriptor[]) {
      if (found.prompt.kind === "stdin" || found.prompt.onStdin !== undefined) continue;
      const error = usageError(() => command(found.name, { policy: "default", prompt: `a${LARGE}` }));
      expect(error.exitCode, found.name).toBe(2);
      expect(error.message).toBe(
        `the prompt is 469 KiB, and ${found.product} takes it only as a command-line argument, which carries less than 128 KiB — put the bulk in a file and point the prompt at it`,
      );
    }
  });

  it("is refused over the 8 MiB Gemini CLI reads from stdin, which it would cut silently", () => {
    const prompt = "x".repeat(8 * 1024 * 1024 + 1);
    expect(command("gemini", { policy: "default", prompt: prompt.slice(1) })).toMatchObject({
      stdin: prompt.slice(1),
    });
    const error = usageError(() => command("gemini", { policy: "default", prompt }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe(
      "the prompt is 8.1 MiB, more than Gemini CLI reads from stdin (8 MiB) — put the bulk in a file and point the prompt at it",
    );
  });

  it("has no such limit for a prompt that always goes on stdin", () => {
    const prompt = "x".repeat(4 * 1024 * 1024);
    expect(command("pi", { policy: "default", prompt })).toEqual({
      args: ["-p", "--mode", "json"],
      stdin: prompt,
    });
  });
});

// Checked with pi 0.73.1 and 1.6.0 against a loopback mock (test/real/prompt-verbatim.test.ts): an argument
// beginning with `@` is read as a file to attach (`@foo` sent the model `<file name=…>` and foo's
// content), one beginning with `-` is an option even after `--` (`Unknown option: -x`), and piped
// stdin is the prompt, trimmed, with the first message argument appended to it unchanged.
describe("a prompt on stdin (pi)", () => {
  const pi = (prompt: string) => command("pi", { policy: "default", prompt });
  const FIXED = ["-p", "--mode", "json"];

  it("keeps every prompt out of argv, whatever it begins with", () => {
    for (const prompt of [
      "-x",
      "--help",
      "@README.md",
      "---",
      "-",
      "/help",
      "line one\nline two ✓ 日本語 🎉",
    ]) {
      expect(pi(prompt), prompt).toEqual({ args: FIXED, stdin: prompt });
    }
  });

  it("gives the whitespace pi trims from the end back as the argument it appends", () => {
    expect(pi("-x\n")).toEqual({ args: [...FIXED, "\n"], stdin: "-x" });
    expect(pi("@foo\nsecond line ✓ 日本語 \t\n\n")).toEqual({
      args: [...FIXED, " \t\n\n"],
      stdin: "@foo\nsecond line ✓ 日本語",
    });
  });

  it("passes a prompt beginning with whitespace as that argument alone: it reads as neither option nor file", () => {
    for (const prompt of [" -x", "\n@foo\n", "\tindented\n  code\n"]) {
      expect(pi(prompt), prompt).toEqual({ args: [...FIXED, prompt], stdin: undefined });
    }
  });

  it("sends one too large for an argument on stdin even so, where pi drops the leading whitespace", () => {
    const prompt = ` ${"x".repeat(200_000)}\n`;
    expect(pi(prompt)).toEqual({ args: [...FIXED, "\n"], stdin: prompt.trimEnd() });
  });

  it("leaves stdin closed for every row that takes its prompt as an argument", () => {
    for (const found of ADAPTERS as readonly AdapterDescriptor[]) {
      if (found.prompt.kind === "stdin") continue;
      for (const prompt of ["hi", "-x", "@foo"]) {
        if (found.prompt.kind === "positional" && !found.prompt.endOfOptions && prompt === "-x") continue;
        expect(stdin(found.name, { policy: "default", prompt }), `${found.name} ${prompt}`).toBeUndefined();
      }
    }
  });

  it("still refuses an empty prompt and a NUL byte", () => {
    expect(usageError(() => pi(" \n\t")).exitCode).toBe(2);
    expect(usageError(() => pi("a\0b")).exitCode).toBe(2);
  });
});
