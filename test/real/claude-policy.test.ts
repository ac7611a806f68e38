// Claude Code under scv's two policies, seen from the CLI's own `system/init` event: `--policy auto` must
// run it in bypassPermissions, `--policy default` in its own default mode. scv consumes that stream, so the
// suite points `[agents.claude] command` at a wrapper that tees the real CLI's stdout (and its environment)
// into the lab. As root, Claude Code refuses bypassPermissions unless IS_SANDBOX=1: the suite sets it in
// scv's config, and checks that scv never sets it by itself and reports the refusal when it is missing.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_SHAPE, shellQuote } from "./clis.js";
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
  requestsWith,
  rootSandbox,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES } from "./profiles.js";

const profile = PROFILES.find((candidate) => candidate.cli === "claude");
const isRoot = process.getuid?.() === 0;

describe.skipIf(BIN === undefined || profile === undefined)(
  "claude: the mode it reports matches the policy",
  () => {
    const who = named("claude");
    let lab: Lab;
    let mock: MockServer;
    let trap: MockServer;
    let wrapper: string;
    let stream: string;
    let environ: string;
    let model: string;
    let agentEnv: Record<string, string>;
    let conversation: string | undefined;

    /** The permissionMode of the last `system/init` event the real CLI printed. */
    function lastInitMode(): string | undefined {
      const inits = readFileSync(stream, "utf8")
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { type?: string; subtype?: string; permissionMode?: string })
        .filter((event) => event.type === "system" && event.subtype === "init");
      expect(inits.length, `${who}: no system/init event on stdout — its event shape moved`).toBeGreaterThan(
        0,
      );
      return inits.at(-1)?.permissionMode;
    }

    function configure(env: Record<string, string>): void {
      lab.writeConfig(agentToml("claude", { model, command: wrapper }, env));
    }

    async function turn(args: readonly string[]) {
      writeFileSync(environ, "");
      const run = await lab.scv(["delegate", ...args, "--json", "--timeout", "90s"], { limitMs: 120_000 });
      await expectNothingLeft(lab, "claude", `scv ${args.slice(0, 3).join(" ")}`);
      return run;
    }

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat" });
      mock = await startMock({ shape: MOCK_SHAPE.claude });
      lab = newLab("claude-policy", newCanary(), trap);
      stream = join(lab.root, "claude-stdout.jsonl");
      environ = join(lab.root, "claude-environ.txt");
      wrapper = join(lab.root, "claude-tee.sh");
      writeFileSync(stream, "");
      writeFileSync(
        wrapper,
        [
          "#!/bin/bash",
          `env > ${shellQuote(environ)}`,
          `${shellQuote(join(BIN ?? "", "claude"))} "$@" | tee -a ${shellQuote(stream)}`,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
          'exit "${PIPESTATUS[0]}"',
          "",
        ].join("\n"),
        { mode: 0o755 },
      );
      const key = dummyKey("claude");
      const endpoint = await writeEndpoint(lab, profile ?? PROFILES[0]!, mock, key);
      model = endpoint.config.model;
      agentEnv = endpoint.agentEnv;
      configure(agentEnv);
      const login = await lab.scv(["agents", "login", "claude", "--with-api-key"], { input: `${key}\n` });
      expect(login.code, describeRun(login)).toBe(0);
    });

    afterAll(async () => {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    it("--policy auto: init reports bypassPermissions", async () => {
      const run = await turn(["claude", "contract policy auto: say hi", "--policy", "auto"]);
      const result = expectTurn("claude", run, 0);
      conversation = result.conversation ?? undefined;
      expect(lastInitMode(), `${who}: permissionMode under --policy auto`).toBe("bypassPermissions");
      expect(result.mode, "the mode scv read from the same init event").toBe("bypassPermissions");
    });

    it("--policy default (continuing): init reports default", async () => {
      if (conversation === undefined) throw new Error(`${who}: no conversation to continue`);
      const run = await turn(["-c", conversation, "contract policy default: again", "--policy", "default"]);
      const result = expectTurn("claude", run, 0);
      expect(lastInitMode(), `${who}: permissionMode under --policy default`).toBe("default");
      expect(result.mode, "the mode scv read from the same init event").toBe("default");
    });

    it.runIf(isRoot)(
      "as root without IS_SANDBOX: scv reports the refusal and never sets it itself",
      async () => {
        const { IS_SANDBOX: _set, ...withoutSandbox } = { ...agentEnv, ...rootSandbox("claude") };
        configure(withoutSandbox);
        try {
          const from = mock.requests.length;
          const refused = await turn(["claude", "contract root refusal: say hi", "--policy", "auto"]);
          expect(readFileSync(environ, "utf8"), `${who}: scv set IS_SANDBOX by itself`).not.toMatch(
            /^IS_SANDBOX=/m,
          );
          expect(refused.code, describeRun(refused)).toBe(1);
          expect(JSON.parse(refused.stdout)).toMatchObject({
            status: "failed",
            hint: "run scv as a non-root user, use --policy default, or inside a container or VM set IS_SANDBOX=1 for it (--env IS_SANDBOX=1, or [agents.claude.env] in scv's config)",
          });
          expect(refused.stderr).toContain("refused its full-permission mode as root");
          expect(
            requestsWith(mock, "contract root refusal"),
            `${who}: the refused turn reached the model`,
          ).toEqual([]);
          expect(mock.requests.length).toBe(from);
          // Its own default mode needs no sandbox marker.
          const standard = await turn(["claude", "contract root default: say hi", "--policy", "default"]);
          expectTurn("claude", standard, 0);
          expect(lastInitMode()).toBe("default");
        } finally {
          configure(agentEnv);
        }
        const sandboxed = await turn(["claude", "contract root sandboxed: say hi", "--policy", "auto"]);
        expectTurn("claude", sandboxed, 0);
        expect(readFileSync(environ, "utf8"), "the configured IS_SANDBOX reaches the CLI").toMatch(
          /^IS_SANDBOX=1$/m,
        );
      },
    );
  },
);
