// A prompt reaches the model exactly as the user wrote it, whatever it begins with. Given as an
// argument, pi reads `@foo` as a file to attach and anything beginning with `-` as an option (so scv
// writes pi's prompt to its stdin), the other CLIs read `-x` as an option unless scv puts it after `--`
// or glues it to its flag, and `codex exec -- -` reads its prompt from stdin. The built scv drives each
// CLI against its loopback mock, and the mock's request shows what the model got: one text part of the
// last user message must be the prompt, byte for byte. A prompt of 300 KiB, which no argument carries,
// goes on the CLI's stdin where its row says it reads it there (`onStdin`), and must arrive whole, or
// altered only as the row says the CLI alters it (copilot strips whitespace at its end, qwen appends two
// newlines).
//
// What no way of passing the prompt changes: Claude Code, Gemini CLI and Qwen Code attach a file the
// text mentions as `@path`, wherever it stands in the prompt and however the prompt arrives (argument,
// stdin, Claude's stream-json input). That is their own feature, applied to the text; this test pins it
// (ATTACHES_MENTIONED_FILES) so that a change in either direction shows up.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import { MOCK_SHAPE, type RealCli } from "./clis.js";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  expectTurn,
  named,
  newCanary,
  newLab,
  writeEndpoint,
} from "./kit.js";
import { type MockRequest, type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile } from "./profiles.js";

/** What the project's file `foo` holds: it reaches the model only from a CLI that attaches the files
 * a prompt mentions. */
const FILE_CONTENT = "CONTENT-OF-FOO-THAT-MUST-NOT-BE-ATTACHED";

/** The CLIs that attach `@foo` themselves, from the prompt's text (checked with the pinned versions). */
const ATTACHES_MENTIONED_FILES: ReadonlySet<RealCli> = new Set(["claude", "gemini", "qwen"]);

interface Case {
  readonly name: string;
  readonly prompt: string;
  /** Passed as `scv delegate <cli> -` with the prompt on scv's stdin. */
  readonly viaStdin?: boolean;
  /** What the model must get, when the CLI changes the prompt (strips whitespace at its ends). */
  readonly sent?: string;
}

/** What every CLI is given: the prompts a CLI could read as something else. */
const TRAPS: readonly Case[] = [
  { name: "@foo", prompt: "@foo" },
  { name: "-x", prompt: "-x" },
  // scv itself reads a lone `-` as "the prompt is on stdin".
  { name: "a lone -", prompt: "-", viaStdin: true },
];

/** More for pi, whose prompt scv writes to its stdin, trimmed there and its whitespace given back. */
const PI_CASES: readonly Case[] = [
  ...TRAPS,
  { name: "--help", prompt: "--help" },
  { name: "leading whitespace, several lines", prompt: "  @foo first line\n\t-x second — ✓\n" },
  {
    name: "several lines, multi-byte, trailing whitespace",
    prompt: "@foo\n--help ✓ 日本語 🎉 \n\n",
    viaStdin: true,
  },
];

/** The text parts of the last user message of a generation request, for each API shape. */
function userTexts(request: MockRequest): string[] {
  const body = request.body as Record<string, unknown> | null;
  if (body === null) return [];
  const texts = (content: unknown): string[] => {
    if (typeof content === "string") return [content];
    if (!Array.isArray(content)) return [];
    return content.flatMap((part: { text?: unknown }) => (typeof part?.text === "string" ? [part.text] : []));
  };
  const lastUser = (list: unknown) =>
    Array.isArray(list) ? list.filter((item: { role?: unknown }) => item?.role === "user").at(-1) : undefined;
  // anthropic and openai-chat: messages; openai-responses: input; gemini: contents with parts.
  const message = lastUser(body.messages) ?? lastUser(body.input) ?? lastUser(body.contents);
  if (message === undefined) return [];
  return texts(message.content ?? message.parts);
}

/** Copilot puts the time in front of the prompt, in the same text part. */
const PREAMBLE = /^<current_datetime>[^<]*<\/current_datetime>\n\n/;

/** 300 KiB, more than one argument carries (Linux: 128 KiB): scv writes it to the CLI's stdin where the
 * row says the CLI reads it there, and it ends in whitespace, which some CLIs strip. */
const LARGE = `-x a large prompt ✓\n${"0123456789abcdef 日本語\n".repeat(12_000)}the end ✓ \n\n`;

/** The large prompt as the model gets it from `cli`, by its row: whole, or as the CLI alters what it
 * reads; undefined where scv refuses it (no way to pass it). */
function largeAsSent(cli: RealCli): string | undefined {
  const style = adapter(cli)?.prompt;
  if (style === undefined) return undefined;
  // pi: the whitespace it trims from the end goes back as the argument it appends.
  if (style.kind === "stdin") return style.trims ? LARGE.trimStart() : LARGE;
  const alters = style.onStdin?.alters;
  if (alters === undefined) return undefined;
  return { nothing: LARGE, "strips-end": LARGE.trimEnd(), "appends-two-newlines": `${LARGE}\n\n` }[alters];
}

const profiles = PROFILES.map((profile) => {
  const sent = largeAsSent(profile.cli);
  const large: Case[] = sent === undefined ? [] : [{ name: "300 KiB", prompt: LARGE, viaStdin: true, sent }];
  return { profile, cases: [...(profile.cli === "pi" ? PI_CASES : TRAPS), ...large] };
});

describe.skipIf(BIN === undefined).each(profiles)(
  "prompt verbatim: scv → $profile.cli",
  ({ profile, cases }: { profile: Profile; cases: readonly Case[] }) => {
    const cli: RealCli = profile.cli;
    const who = named(cli);
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: MOCK_SHAPE[cli] });
      lab = newLab(`verbatim-${cli}`, newCanary(), trap);
      writeFileSync(join(lab.cwd, "foo"), `${FILE_CONTENT}\n`);
      const key = dummyKey(cli);
      const endpoint = await writeEndpoint(lab, profile, mock, key);
      lab.writeConfig(agentToml(cli, { model: endpoint.config.model }, endpoint.agentEnv));
      if (profile.signIn === "api-key") {
        const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
        expect(login.code, describeRun(login)).toBe(0);
      }
    });

    afterAll(async () => {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    for (const { name, prompt, viaStdin, sent = prompt } of cases) {
      it(`${name} reaches the model verbatim`, async () => {
        const from = mock.requests.length;
        // After scv's own `--`, so that scv does not read `-x` as an option of its own.
        const given = viaStdin ? [cli, "-"] : ["--", cli, prompt];
        const args = ["delegate", "--json", "--timeout", profile.turnTimeout, ...given];
        const run = await lab.scv(args, {
          input: viaStdin ? prompt : undefined,
          limitMs: (Number.parseInt(profile.turnTimeout, 10) + 30) * 1000,
        });
        await expectNothingLeft(lab, cli, `the ${name} turn`);
        expectTurn(cli, run, 0);
        const asked = mock.requests.slice(from).filter((request) => request.kind === "generate");
        const got = asked.map((request) => userTexts(request).map((text) => text.replace(PREAMBLE, "")));
        const shown = `the model got: ${JSON.stringify(got.map((texts) => texts.map((text) => (text.length > 400 ? `${text.slice(0, 150)}…(${text.length} chars)…${text.slice(-150)}` : text))))}\n${describeRun(run)}`;
        expect(
          got.some((texts) => texts.includes(sent)),
          `${who}: no request carried the prompt ${JSON.stringify(sent).slice(0, 200)} as one text part; ${shown}`,
        ).toBe(true);
        const attached = asked.some((request) => request.rawBody.includes(FILE_CONTENT));
        const mentions = /(?:^|\s)@foo\b/.test(prompt);
        if (ATTACHES_MENTIONED_FILES.has(cli)) {
          expect(attached, `${who} attaches a file the prompt mentions as @foo — did that change?`).toBe(
            mentions,
          );
        } else {
          expect(attached, `${who}: the file foo was read into the prompt; ${shown}`).toBe(false);
        }
      });
    }
  },
);
