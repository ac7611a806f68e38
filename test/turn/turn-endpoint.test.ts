// The endpoint's rendering (src/turn/turn-endpoint.ts), pure: what each form of a row gives its CLI, the
// key only ever as the row's variable.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor, adapter } from "../../src/adapters.js";
import { ScvError } from "../../src/errors.js";
import {
  endpointKey,
  endpointModel,
  planEndpoint,
  renderEndpoint,
  type TurnEndpoint,
} from "../../src/turn/turn-endpoint.js";

const KEY = "sk-CANARY-render";
const SETTINGS = { base_url: "http://127.0.0.1:4000/v1", api_key_env: "MY_KEY" };

function row(name: string): AdapterDescriptor {
  const found = adapter(name);
  if (found === undefined) throw new Error(name);
  return found;
}

function planned(name: string, model?: string): TurnEndpoint {
  const turn = planEndpoint(row(name), SETTINGS, "process", model);
  if (turn === undefined) throw new Error("no endpoint");
  return turn;
}

describe("renderEndpoint", () => {
  it("every supported row renders, the key only under its variable and nowhere else", () => {
    for (const entry of ADAPTERS as readonly AdapterDescriptor[]) {
      if (entry.endpoint.kind !== "supported") continue;
      const rendered = renderEndpoint(planned(entry.name, "m1"), { key: KEY, model: "m1", dir: "/t" });
      const holding = Object.entries(rendered.env).filter(([, value]) => value.includes(KEY));
      expect(holding, entry.name).toEqual([[entry.endpoint.key, KEY]]);
      expect(JSON.stringify([rendered.args, rendered.files]), entry.name).not.toContain(KEY);
    }
  });

  it("codex: a provider of its own as -c overrides, its key read from the variable env_key names", () => {
    expect(renderEndpoint(planned("codex"), { key: KEY, dir: "/t" })).toEqual({
      args: [
        "-c",
        "features.shell_snapshot=false",
        "-c",
        'model_provider="scv-endpoint"',
        "-c",
        'model_providers.scv-endpoint.name="scv-endpoint"',
        "-c",
        'model_providers.scv-endpoint.base_url="http://127.0.0.1:4000/v1"',
        "-c",
        'model_providers.scv-endpoint.env_key="SCV_ENDPOINT_API_KEY"',
        "-c",
        'model_providers.scv-endpoint.wire_api="responses"',
      ],
      env: { SCV_ENDPOINT_API_KEY: KEY },
      files: [],
    });
  });

  it("opencode: a provider in OPENCODE_CONFIG_CONTENT listing the turn's model, reasoning with an effort", () => {
    const rendered = renderEndpoint(planned("opencode", "qwen3"), {
      key: KEY,
      model: "endpoint/qwen3",
      effort: "high",
      dir: "/t",
    });
    expect(JSON.parse(rendered.env.OPENCODE_CONFIG_CONTENT ?? "")).toEqual({
      provider: {
        endpoint: {
          npm: "@ai-sdk/openai-compatible",
          name: "endpoint",
          options: { baseURL: "http://127.0.0.1:4000/v1", apiKey: "{env:SCV_ENDPOINT_API_KEY}" },
          models: { qwen3: { name: "qwen3", reasoning: true } },
        },
      },
      model: "endpoint/qwen3",
      small_model: "endpoint/qwen3",
    });
  });

  it("pi: an extension file in the turn's folder registering the provider, named by -e", () => {
    const rendered = renderEndpoint(planned("pi", "qwen3"), { key: KEY, model: "qwen3", dir: "/t/scv-mcp" });
    expect(rendered.args).toEqual(["-e", "/t/scv-mcp/endpoint-provider.mjs"]);
    expect(rendered.files.map((file) => file.path)).toEqual(["/t/scv-mcp/endpoint-provider.mjs"]);
    const text = rendered.files[0]?.text ?? "";
    expect(text).toContain('api.registerProvider("endpoint", {');
    expect(text).toContain('"baseUrl": "http://127.0.0.1:4000/v1"');
    // pi 0.77+ reads a bare name as the key itself: the variable is referenced as `${NAME}`.
    expect(text).toContain(`"apiKey": "\${SCV_ENDPOINT_API_KEY}"`);
    expect(text).toContain('"id": "qwen3"');
    expect(text).toContain('"reasoning": false');
  });

  it("droid: a custom model in a --settings file, its key as a variable reference, named custom:<display name>-0", () => {
    const turn = planned("droid", "mock-model");
    expect(renderEndpoint(turn, { key: KEY, model: "mock-model", dir: "/t" })).toEqual({
      args: ["--settings", "/t/endpoint-custom-models.json"],
      env: { SCV_ENDPOINT_API_KEY: KEY },
      files: [
        {
          path: "/t/endpoint-custom-models.json",
          text: `${JSON.stringify(
            {
              customModels: [
                {
                  model: "mock-model",
                  displayName: "scv-endpoint",
                  provider: "generic-chat-completion-api",
                  baseUrl: "http://127.0.0.1:4000/v1",
                  // Droid expands the reference itself.
                  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text Droid reads
                  apiKey: "${SCV_ENDPOINT_API_KEY}",
                  maxOutputTokens: 16384,
                },
              ],
            },
            null,
            2,
          )}\n`,
        },
      ],
    });
    expect(endpointModel(turn, "mock-model")).toBe("custom:scv-endpoint-0");
  });

  it("cline: a providers file named by CLINE_PROVIDER_SETTINGS_PATH, the key left to OPENAI_API_KEY", () => {
    const turn = planned("cline", "mock-model");
    const rendered = renderEndpoint(turn, { key: KEY, model: "mock-model", dir: "/t" });
    expect(rendered.args).toEqual([]);
    expect(rendered.env).toEqual({
      CLINE_PROVIDER_SETTINGS_PATH: "/t/endpoint-provider-settings.json",
      OPENAI_API_KEY: KEY,
    });
    expect(JSON.parse(rendered.files[0]?.text ?? "")).toMatchObject({
      lastUsedProvider: "openai-compatible",
      providers: {
        "openai-compatible": {
          settings: {
            provider: "openai-compatible",
            model: "mock-model",
            baseUrl: "http://127.0.0.1:4000/v1",
          },
        },
      },
    });
    expect(endpointModel(turn, "mock-model")).toBe("mock-model");
  });

  it("the model of a provider of the CLI's own is <provider>/<model>; others' as asked", () => {
    expect(endpointModel(planned("opencode", "m"), "m")).toBe("endpoint/m");
    expect(endpointModel(planned("pi", "endpoint/m"), "endpoint/m")).toBe("endpoint/m");
    expect(endpointModel(planned("codex"), "gpt-5.5")).toBe("gpt-5.5");
    expect(endpointModel(undefined, "m")).toBe("m");
  });
});

describe("planEndpoint and endpointKey", () => {
  it("nothing without base_url; refusals say what to do, never a value", () => {
    expect(planEndpoint(row("codex"), {}, "process", undefined)).toBeUndefined();
    expect(() => planEndpoint(row("codex"), SETTINGS, "acp", undefined)).toThrow(
      "Codex's ACP server takes no base_url from scv — use --transport process, or remove base_url from [agents.codex] of scv's config",
    );
    // Copilot's variables reach its ACP server too.
    expect(planEndpoint(row("copilot"), SETTINGS, "acp", undefined)?.keyVariable).toBe("MY_KEY");
    expect(() => planEndpoint(row("pi"), SETTINGS, "process", undefined)).toThrow(/needs the model/);
    expect(() => planEndpoint(row("amp"), SETTINGS, "process", undefined)).toThrow(ScvError);
    const turn = planned("codex");
    expect(endpointKey(row("codex"), turn, { MY_KEY: KEY })).toBe(KEY);
    for (const env of [{}, { MY_KEY: "" }]) {
      try {
        endpointKey(row("codex"), turn, env);
        throw new Error("expected a refusal");
      } catch (error) {
        expect((error as ScvError).exitCode).toBe(4);
        expect((error as ScvError).message).toMatch(/^MY_KEY is not set/);
      }
    }
  });
});
