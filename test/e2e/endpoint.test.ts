// An endpoint of the user's own (`base_url`, `api_key_env` under `[agents.<name>]`), end to end with
// the fake CLIs: each row's rendering reaches its CLI as the row says (a variable of its own, `-c`
// overrides, a JSON config in a variable, an extension file), the key only as the variable its CLI
// reads — never on a command line, in a file, in scv's output, or in another agent's environment —
// with no sign-in of the CLI's own needed; and what cannot work is one line before anything starts.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { canaryVariables, filesHolding } from "../helpers/canaries.js";
import { useLab } from "../helpers/lab.js";
import { type AgentCall, agentCalls, scv, signIn, type World } from "../helpers/scv.js";

let world: World;
useLab((created) => {
  world = created;
});

const KEY = "sk-endpoint-CANARY-7f3a9c";
const URL_OF = (entry: AdapterDescriptor) =>
  entry.endpoint.kind === "supported" && entry.endpoint.api.startsWith("openai")
    ? "http://127.0.0.1:4000/v1"
    : "http://127.0.0.1:4000";

/** Every shipped row whose CLI takes an endpoint from scv, with a one-turn command line. */
const WITH_ENDPOINT = (ADAPTERS as readonly AdapterDescriptor[]).filter(
  (entry) => entry.endpoint.kind === "supported" && entry.cliTurns,
);

function config(text: string): void {
  mkdirSync(world.scvHome, { recursive: true });
  writeFileSync(join(world.scvHome, "config.toml"), text);
}

function endpointToml(agent: string, url: string, extra = ""): string {
  return `[agents.${agent}]\nbase_url = "${url}"\napi_key_env = "MY_ENDPOINT_KEY"\n${extra}`;
}

type Call = AgentCall & {
  readonly extensions?: { path: string; text: string | null; mode: string | null }[];
  readonly settingsFiles?: { path: string; text: string | null; mode: string | null }[];
};

describe("base_url and api_key_env", () => {
  it("every row's CLI gets the endpoint as its row says and the key only as its own variable, with no sign-in of its own", async () => {
    expect(WITH_ENDPOINT.map((entry) => entry.name)).toEqual([
      "claude",
      "claude-ai",
      "codex",
      "pi",
      "gemini",
      "qwen",
      "opencode",
      "copilot",
      "cline",
      "kilo",
      "droid",
    ]);
    config(WITH_ENDPOINT.map((entry) => endpointToml(entry.name, URL_OF(entry))).join("\n"));
    const runs = await Promise.all(
      WITH_ENDPOINT.map((entry) =>
        scv(world, ["delegate", entry.name, "-m", "mock-model", "Say hi", "--json"], {
          env: { ...canaryVariables(), MY_ENDPOINT_KEY: KEY },
        }),
      ),
    );
    for (const [index, run] of runs.entries()) {
      const name = WITH_ENDPOINT[index]?.name;
      expect(run.exitCode, `${name}: ${run.stderr}`).toBe(0);
      expect(`${run.stdout}${run.stderr}`, name).not.toContain(KEY);
    }
    const calls = agentCalls(world) as Call[];
    expect(calls).toHaveLength(WITH_ENDPOINT.length);
    for (const entry of WITH_ENDPOINT) {
      const endpoint = entry.endpoint;
      if (endpoint.kind !== "supported") throw new Error("unreachable");
      const call = calls.find((each) => each.env.HOME === join(world.scvHome, "agents", entry.name)) as Call;
      const who = entry.name;
      const url = URL_OF(entry);
      // The key: only under the row's variable; the user's variable holding it is not passed on.
      expect(call.env[endpoint.key], who).toBe(KEY);
      expect(call.env.MY_ENDPOINT_KEY, who).toBeUndefined();
      expect(
        Object.entries(call.env)
          .filter(([, value]) => value.includes(KEY))
          .map(([name]) => name),
        who,
      ).toEqual([endpoint.key]);
      expect(call.argv.join(" "), who).not.toContain(KEY);
      expect(call.argv, who).toEqual(expect.arrayContaining([...endpoint.args]));
      switch (endpoint.url.kind) {
        case "env":
          expect(call.env[endpoint.url.variable], who).toBe(url);
          expect(call.argv, who).toEqual(expect.arrayContaining(["mock-model"]));
          break;
        case "config-args":
          expect(call.argv, who).toEqual(
            expect.arrayContaining([
              "-c",
              'model_provider="scv-endpoint"',
              `model_providers.scv-endpoint.base_url="${url}"`,
              `model_providers.scv-endpoint.env_key="${endpoint.key}"`,
              'model_providers.scv-endpoint.wire_api="responses"',
            ]),
          );
          break;
        case "config-env": {
          const content = JSON.parse(call.env[endpoint.url.variable] ?? "{}");
          expect(content.provider.endpoint.options, who).toEqual({
            baseURL: url,
            apiKey: `{env:${endpoint.key}}`,
          });
          expect(Object.keys(content.provider.endpoint.models), who).toEqual(["mock-model"]);
          expect(call.argv, who).toEqual(expect.arrayContaining(["-m", "endpoint/mock-model"]));
          break;
        }
        case "extension-file": {
          const [extension] = call.extensions ?? [];
          expect(extension?.mode, who).toBe("600");
          expect(extension?.text, who).toContain(JSON.stringify(url));
          expect(extension?.text, who).toContain(`"apiKey": "\${${endpoint.key}}"`);
          expect(extension?.text, who).not.toContain(KEY);
          expect(existsSync(extension?.path ?? "/"), `${who}: the extension outlived the turn`).toBe(false);
          expect(call.argv, who).toEqual(expect.arrayContaining(["--model", "endpoint/mock-model"]));
          break;
        }
        case "settings-file": {
          // A file of the turn's, without the key: the CLI reads it from the row's variable.
          const [file] = call.settingsFiles ?? [];
          expect(file?.mode, who).toBe("600");
          expect(file?.text, who).toContain(JSON.stringify(url));
          expect(file?.text, who).not.toContain(KEY);
          expect(existsSync(file?.path ?? "/"), `${who}: the settings file outlived the turn`).toBe(false);
          if (endpoint.url.variable !== undefined)
            expect(call.env[endpoint.url.variable], who).toBe(file?.path);
          else expect(call.argv, who).toEqual(expect.arrayContaining(["--settings", file?.path]));
          break;
        }
      }
    }
    // Nothing on disk holds the key but the fakes' own records of their environment.
    for (const dir of [world.scvHome, world.home, world.tmp, world.project])
      expect(filesHolding(dir, KEY), dir).toEqual([]);
    // Gemini CLI's headless sign-in needed its API-key sign-in chosen; none was, so scv chose it (beside
    // the row's own home settings, which every start writes).
    const settings = JSON.parse(
      readFileSync(join(world.scvHome, "agents", "gemini", ".gemini", "settings.json"), "utf8"),
    );
    expect(settings.security).toEqual({ auth: { selectedType: "gemini-api-key" } });
  });

  it("the key's variable reaches no other agent, and an agent without base_url keeps its own sign-in", async () => {
    config(endpointToml("claude", "http://127.0.0.1:4000"));
    await signIn(world, "codex");
    const env = { MY_ENDPOINT_KEY: KEY };
    expect((await scv(world, ["delegate", "claude", "Say hi"], { env })).exitCode).toBe(0);
    expect((await scv(world, ["delegate", "codex", "Say hi"], { env })).exitCode).toBe(0);
    const codex = agentCalls(world).find((call) => call.cli === "codex");
    expect(Object.values(codex?.env ?? {}).filter((value) => value.includes(KEY))).toEqual([]);
    expect(codex?.argv.join(" ")).not.toContain("scv-endpoint");
  });

  it("agents status and show: signed in by the endpoint's key while its variable is set, never showing it", async () => {
    config(endpointToml("claude", "http://127.0.0.1:4000"));
    const set = await scv(world, ["agents", "status", "claude", "--json"], { env: { MY_ENDPOINT_KEY: KEY } });
    expect(JSON.parse(set.stdout)).toMatchObject({
      state: "signed-in",
      source: "endpoint",
      detail: "base_url http://127.0.0.1:4000, with the key in MY_ENDPOINT_KEY",
    });
    expect(`${set.stdout}${set.stderr}`).not.toContain(KEY);
    const show = await scv(world, ["agents", "show", "claude"], { env: { MY_ENDPOINT_KEY: KEY } });
    expect(show.stdout).toContain(
      "endpoint:    http://127.0.0.1:4000, the key in MY_ENDPOINT_KEY — base_url serving anthropic-messages, given as ANTHROPIC_BASE_URL, its key as ANTHROPIC_API_KEY; not over ACP\n",
    );
    expect(show.stdout).not.toContain(KEY);
    const unset = await scv(world, ["agents", "status", "claude", "--json"]);
    expect(JSON.parse(unset.stdout)).toMatchObject({
      state: "signed-out",
      source: "endpoint",
      detail: "base_url http://127.0.0.1:4000: its key's variable MY_ENDPOINT_KEY is not set",
    });
  });

  it("an unset key variable is exit 4 naming it, before the CLI starts", async () => {
    config(endpointToml("codex", "http://127.0.0.1:4000/v1"));
    const run = await scv(world, ["delegate", "codex", "Say hi"]);
    expect(run.exitCode).toBe(4);
    expect(run.stderr.split("\n")[0]).toBe(
      "scv: MY_ENDPOINT_KEY is not set, and it holds the key of codex's endpoint (api_key_env in [agents.codex] of scv's config) — export it, or name another variable there",
    );
    expect(agentCalls(world)).toEqual([]);
  });

  it("a refused key says to check that variable, not to sign in", async () => {
    config(endpointToml("codex", "http://127.0.0.1:4000/v1"));
    const run = await scv(world, ["delegate", "codex", "Say hi", "--json"], {
      env: { MY_ENDPOINT_KEY: KEY, FAKE_AGENT_MODE: "fixture:auth-fail" },
    });
    expect(run.exitCode).toBe(4);
    expect(JSON.parse(run.stdout).hint).toBe(
      "check the key in MY_ENDPOINT_KEY (api_key_env in [agents.codex] of scv's config): http://127.0.0.1:4000/v1 refused it",
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(KEY);
  });

  it("a sign-in the user chose in Gemini CLI's settings is never changed: one line, nothing started", async () => {
    const settings = join(world.scvHome, "agents", "gemini", ".gemini", "settings.json");
    mkdirSync(join(settings, ".."), { recursive: true });
    const mine = `${JSON.stringify({ security: { auth: { selectedType: "oauth-personal" } }, ui: { theme: "x" } })}\n`;
    writeFileSync(settings, mine);
    config(endpointToml("gemini", "http://127.0.0.1:4000"));
    const run = await scv(world, ["delegate", "gemini", "Say hi"], { env: { MY_ENDPOINT_KEY: KEY } });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(
      'scv: Gemini CLI signs in with "oauth-personal" (security.auth.selectedType in .gemini/settings.json of gemini\'s home), and base_url needs "gemini-api-key" there — set it (scv run gemini, or edit the file), or remove base_url from [agents.gemini]\n',
    );
    expect(readFileSync(settings, "utf8")).toBe(mine);
    expect(agentCalls(world)).toEqual([]);
  });

  it("what the rendering cannot reach is a usage error before anything starts", async () => {
    config(
      `${endpointToml("claude", "http://127.0.0.1:4000")}\n${endpointToml("opencode", "http://127.0.0.1:4000/v1")}`,
    );
    const env = { MY_ENDPOINT_KEY: KEY };
    const acp = await scv(world, ["delegate", "claude", "--transport", "acp", "Say hi"], { env });
    expect(acp.exitCode).toBe(2);
    expect(acp.stderr).toBe(
      "scv: Claude Code (API key)'s ACP server takes no base_url from scv — use --transport process, or remove base_url from [agents.claude] of scv's config\n",
    );
    const modelless = await scv(world, ["delegate", "opencode", "Say hi"], { env });
    expect(modelless.exitCode).toBe(2);
    expect(modelless.stderr).toBe(
      "scv: OpenCode with base_url needs the model the endpoint serves — pass -m <model>, or set model in [agents.opencode] of scv's config\n",
    );
    expect(agentCalls(world)).toEqual([]);
  });
});
