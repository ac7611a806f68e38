// The descriptor's schema (src/descriptor/row.ts) holds every shipped row and every row of the user's
// config (src/config-agents.ts): good rows load whole, bad ones are refused naming the file, the key
// path and what was expected, and a shipped name is shadowed only when the config says so.

import { afterEach, describe, expect, it } from "vitest";
import {
  ADAPTERS,
  type AdapterDescriptor,
  adapter,
  allAdapters,
  shippedAdapter,
  useConfiguredAgents,
} from "../../src/adapters.js";
import { descriptorSchema } from "../../src/descriptor/row.js";
import { isEffortWord } from "../../src/effort.js";
import { ScvError } from "../../src/errors.js";
import { parseConfig } from "../../src/home/config.js";
import { isCredentialVariable } from "../../src/transport/env.js";

const FILE = "/home/u/.config/scv/config.toml";

function rows(toml: string): readonly AdapterDescriptor[] {
  return parseConfig(toml, FILE).agentRows ?? [];
}

function refusal(toml: string): string {
  try {
    parseConfig(toml, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).exitCode).toBe(2);
    return (error as ScvError).message;
  }
  throw new Error("expected a config error");
}

const MINIMAL = `
[agents.acme]
command = "acme"
`;

afterEach(() => useConfiguredAgents(() => []));

describe("the descriptor schema", () => {
  it.each((ADAPTERS as readonly AdapterDescriptor[]).map((entry) => [entry.name, entry] as const))(
    "holds the shipped row %s, unchanged",
    (_name, entry) => {
      const parsed = descriptorSchema().safeParse(entry);
      expect(parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe("");
      expect(parsed.data).toEqual(entry);
    },
  );

  it("refuses a shipped row with a field it does not know", () => {
    const codex = shippedAdapter("codex");
    expect(descriptorSchema().safeParse({ ...codex, flavour: "x" }).success).toBe(false);
  });
});

describe("agents of the config", () => {
  it("defines an agent from its command alone, with a plain-text row", () => {
    const [acme] = rows(MINIMAL);
    expect(acme).toMatchObject({
      name: "acme",
      command: "acme",
      prompt: { kind: "positional", endOfOptions: false },
      output: { kind: "text", args: [] },
      resume: { kind: "unsupported" },
      status: { kind: "unchecked" },
      verified: { kind: "unverified", reason: `defined in ${FILE} [agents.acme]` },
    });
  });

  it("defines a whole row: prompt, output format, resume grammar with its pattern, removed variables, sign-in", () => {
    const [acme] = rows(`
[agents.acme]
command = "acme"
args = ["run"]
headlessArgs = ["--stream"]
prompt = { kind = "flag", args = ["-p"], joined = "--prompt=" }
output = { kind = "codex-jsonl", args = ["--json"] }
resume = { kind = "supported", options = ["--resume", "{session}"], idPattern = "^ses_[0-9a-z]+$" }
removedEnvironment = ["ACME_*"]
login = { kind = "command", args = ["login"], needs = "browser" }
transport = "process"
model = "big"
`);
    expect(acme?.prompt).toEqual({ kind: "flag", args: ["-p"], joined: "--prompt=" });
    expect(acme?.output.kind).toBe("codex-jsonl");
    expect(acme?.resume.kind === "supported" && acme.resume.idPattern.test("ses_abc1")).toBe(true);
    expect(acme?.resume.kind === "supported" && acme.resume.idPattern.test("ses_abc1; rm")).toBe(false);
    expect(acme?.login).toEqual({ kind: "command", args: ["login"], needs: "browser" });
    // A setting stays a setting: the row's fields are not among them.
    expect(
      parseConfig(`[agents.acme]\ncommand = "acme"\nargs = ["run"]\nmodel = "big"\n`, FILE).agents,
    ).toEqual({
      acme: { command: "acme", model: "big" },
    });
  });

  it("extends a shipped row: other command (its ACP server follows), extra arguments, fields replaced", () => {
    const [fast] = rows(`
[agents.qwen-fast]
extends = "qwen"
command = "/opt/qwen-wrapper"
extra_args = ["--approval-mode", "plan"]
effortLevels = []
`);
    const qwen = shippedAdapter("qwen");
    expect(fast).toMatchObject({
      name: "qwen-fast",
      command: "/opt/qwen-wrapper",
      headlessArgs: ["--approval-mode", "plan"],
      output: qwen?.output,
      removedEnvironment: qwen?.removedEnvironment,
      acp: { ...qwen?.acp, command: "/opt/qwen-wrapper" },
    });
  });

  it("leaves a shipped row alone for settings, and shadows it only when told", () => {
    expect(rows(`[agents.codex]\nmodel = "gpt-5.5"\ncommand = "/opt/codex"\n`)).toEqual([]);
    const [own] = rows(`[agents.codex]\nextends = "codex"\nextra_args = ["--oss"]\n`);
    expect(own?.headlessArgs).toEqual(["--skip-git-repo-check", "--oss"]);
    const [whole] = rows(`[agents.codex]\nreplace = true\ncommand = "my-codex"\n`);
    expect(whole).toMatchObject({ name: "codex", command: "my-codex", output: { kind: "text" } });
  });

  it.each([
    [
      "a row field on a shipped agent without extends",
      `[agents.codex]\nargs = ["exec", "--oss"]\n`,
      `${FILE}: agents.codex.args: 'codex' is a shipped agent — to change its row add extends = "codex", or replace = true to define it whole`,
    ],
    [
      "a shipped agent extending another",
      `[agents.codex]\nextends = "claude"\n`,
      `${FILE}: agents.codex.extends: a shipped agent's row extends only itself`,
    ],
    [
      "extends of no shipped agent",
      `[agents.x]\nextends = "nope"\n`,
      `${FILE}: agents.x.extends: expected a shipped agent — known: claude,`,
    ],
    [
      "replace of no shipped agent",
      `[agents.x]\nreplace = true\ncommand = "x"\n`,
      `${FILE}: agents.x.replace: 'x' is not a shipped agent`,
    ],
    [
      "an unknown agent with settings only",
      `[agents.codx]\nmodel = "m"\n`,
      `${FILE}: agents.codx: unknown agent — known: claude,`,
    ],
    [
      "a name that is no CLI token",
      `[agents.Acme]\ncommand = "acme"\n`,
      `${FILE}: agents.Acme: expected an agent name`,
    ],
    [
      "a misspelt field",
      `${MINIMAL}outptu = "text"\n`,
      `${FILE}: agents.acme.outptu: unknown key — did you mean output?`,
    ],
    [
      "an output format scv has no parser for",
      `${MINIMAL}output = { kind = "xml", args = [] }\n`,
      `${FILE}: agents.acme.output.kind: expected one of "text", "claude-stream-json"`,
    ],
    [
      "a key of the wrong type inside a field",
      `${MINIMAL}prompt = { kind = "positional", endOfOptions = "yes" }\n`,
      `${FILE}: agents.acme.prompt.endOfOptions: expected true or false, got a string`,
    ],
    [
      "an unanchored session id pattern",
      `${MINIMAL}resume = { kind = "supported", options = ["-r", "{session}"], idPattern = "[a-z]+" }\n`,
      `${FILE}: agents.acme.resume.idPattern: expected a regular expression anchored at both ends`,
    ],
    [
      "model arguments without {model}",
      `${MINIMAL}modelArgs = ["--model"]\n`,
      `${FILE}: agents.acme.modelArgs: expected {model} in one of its arguments`,
    ],
    [
      "a removed variable that is no name",
      `${MINIMAL}removedEnvironment = ["ACME TOKEN"]\n`,
      `${FILE}: agents.acme.removedEnvironment.0: expected a variable name, or a prefix ending in *`,
    ],
    [
      "an ACP adapter's CLI variable that is no name",
      `${MINIMAL}acp = { command = "acme-acp", args = [], cliPathVariable = "ACME PATH", full = { kind = "none" }, fullEnvironment = [], verified = { kind = "unverified", reason = "mine" } }\n`,
      `${FILE}: agents.acme.acp.cliPathVariable: expected a variable name such as FOO_HOME`,
    ],
    [
      "a credential file outside the agent home",
      `${MINIMAL}credentialFiles = ["../../.ssh/id_rsa"]\n`,
      `${FILE}: agents.acme.credentialFiles.0: expected a path relative to the agent home`,
    ],
  ])("refuses %s, naming the file and the key path", (_case, toml, message) => {
    expect(refusal(toml)).toContain(message);
  });

  it("never loads half a config: one bad row refuses the others with it", () => {
    expect(refusal(`${MINIMAL}\n[agents.beta]\ncommand = "beta"\noutput = "json"\n`)).toContain(
      "agents.beta.output: expected a table, got a string",
    );
  });

  it("never quotes a value in its message (an env value may be a key)", () => {
    const message = refusal(
      `${MINIMAL}env = { TOKEN = "sk-canary-123" }\noutput = { kind = "sk-canary-456", args = [] }\n`,
    );
    expect(message).not.toContain("sk-canary");
  });
});

describe("the registry", () => {
  it("adds the config's agents after the shipped ones and replaces a shadowed one in place", () => {
    const configured = rows(`${MINIMAL}\n[agents.pi]\nextends = "pi"\ncommand = "my-pi"\n`);
    useConfiguredAgents(() => configured);
    const names = allAdapters().map((entry) => entry.name);
    expect(names).toEqual([...ADAPTERS.map((entry) => entry.name), "acme"]);
    expect(adapter("pi")?.command).toBe("my-pi");
    expect(adapter("acme")?.command).toBe("acme");
    expect(shippedAdapter("pi")?.command).toBe("pi");
    useConfiguredAgents(() => []);
    expect(adapter("acme")).toBeUndefined();
    expect(adapter("pi")?.command).toBe("pi");
  });

  it("reads the config on the first lookup only, and not at all for a command that looks none up", () => {
    let reads = 0;
    useConfiguredAgents(() => {
      reads += 1;
      return [];
    });
    expect(reads).toBe(0);
    adapter("codex");
    adapter("acme");
    expect(reads).toBe(1);
  });

  it("strips a config agent's removed variables from every agent, as a shipped agent's", () => {
    expect(isCredentialVariable("ACME_SESSION")).toBe(false);
    useConfiguredAgents(() => rows(`${MINIMAL}removedEnvironment = ["ACME_*"]\n`));
    expect(isCredentialVariable("ACME_SESSION")).toBe(true);
    expect(isCredentialVariable("OPENAI_API_KEY")).toBe(true);
  });

  it("counts a config agent's effort levels as effort words, so acme/turbo is no model id", () => {
    expect(isEffortWord("turbo")).toBe(false);
    useConfiguredAgents(() =>
      rows(`${MINIMAL}effortArgs = ["--effort", "{effort}"]\neffortLevels = ["turbo"]\n`),
    );
    expect(isEffortWord("TURBO")).toBe(true);
    expect(isEffortWord("xhigh")).toBe(true);
  });
});
