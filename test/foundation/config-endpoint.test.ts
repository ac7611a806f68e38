// `base_url` and `api_key_env` under `[agents.<name>]` in scv's config: both or neither, a URL that
// carries no credential, only for an agent whose row says how its CLI takes one; the key's variable
// is withheld from every agent's inherited environment.

import { describe, expect, it } from "vitest";
import { ScvError } from "../../src/errors.js";
import { agentSettings, endpointKeyVariables, parseConfig } from "../../src/home/config.js";
import { withheldVariables } from "../../src/transport/env.js";

function configError(text: string): string {
  try {
    parseConfig(text, "/etc/scv.toml");
  } catch (error) {
    expect(error).toBeInstanceOf(ScvError);
    expect((error as ScvError).exitCode).toBe(2);
    return (error as ScvError).message;
  }
  throw new Error("expected a config error");
}

describe("base_url and api_key_env", () => {
  it("are read per agent, and the key's variable goes to no agent's inherited environment", () => {
    const config = parseConfig(
      '[agents.codex]\nbase_url = "https://llm.example.com/v1"\napi_key_env = "MY_PROXY_KEY"\n[isolation]\nremove = ["CORP_*"]\n',
      "config.toml",
    );
    expect(agentSettings(config, "codex")).toMatchObject({
      base_url: "https://llm.example.com/v1",
      api_key_env: "MY_PROXY_KEY",
    });
    expect(config.isolation?.remove).toEqual(["CORP_*", "MY_PROXY_KEY"]);
    expect(endpointKeyVariables(config)).toEqual(["MY_PROXY_KEY"]);
    const withheld = withheldVariables(config.isolation);
    expect(withheld("MY_PROXY_KEY")).toBe(true);
    expect(withheld("MY_PROXY")).toBe(false);
    // Without an endpoint, nothing is added.
    expect(parseConfig('[agents.codex]\nmodel = "gpt-5.5"\n', "config.toml").isolation).toBeUndefined();
  });

  it("come together", () => {
    expect(configError('[agents.codex]\nbase_url = "http://127.0.0.1:4000/v1"\n')).toBe(
      '/etc/scv.toml: agents.codex.base_url: needs api_key_env, the variable of your environment holding the endpoint\'s key — add api_key_env = "MY_ENDPOINT_KEY"',
    );
    expect(configError('[agents.codex]\napi_key_env = "K"\n')).toBe(
      "/etc/scv.toml: agents.codex.api_key_env: names the key of base_url, which is not set — add base_url, or remove api_key_env",
    );
  });

  it("refuse a URL that could carry a secret or is no http(s) URL, never echoing it", () => {
    for (const url of [
      "http://user:sk-secret@127.0.0.1:4000/v1",
      "http://sk-secret@127.0.0.1/v1",
      "https://127.0.0.1/v1?key=sk-secret",
      "https://127.0.0.1/v1#sk-secret",
      "ftp://127.0.0.1/v1",
      "127.0.0.1:4000",
      'http://127.0.0.1/"sk-secret',
      "http://127.0.0.1/ v1",
    ]) {
      const message = configError(`[agents.codex]\nbase_url = '${url}'\napi_key_env = "K"\n`);
      expect(message, url).toMatch(
        /^\/etc\/scv\.toml: agents\.codex\.base_url: expected an http:\/\/ or https:\/\/ URL with no user, password or query in it/,
      );
      expect(message, url).not.toContain("sk-secret");
    }
    expect(
      configError('[agents.codex]\nbase_url = "http://127.0.0.1:4000/v1"\napi_key_env = "MY-KEY"\n'),
    ).toMatch(/agents\.codex\.api_key_env: expected a variable name/);
  });

  it("are refused for an agent whose CLI takes no endpoint from scv, saying why", () => {
    expect(configError('[agents.amp]\nbase_url = "http://127.0.0.1:4000"\napi_key_env = "K"\n')).toBe(
      "/etc/scv.toml: agents.amp.base_url: Amp takes no endpoint from scv (its model traffic goes through the Amp service, not to a model API) — remove base_url and api_key_env",
    );
    // A row of the config that says how its CLI takes one is as good as a shipped one.
    const config = parseConfig(
      '[agents.my-claude]\nextends = "claude"\nbase_url = "http://127.0.0.1:4000"\napi_key_env = "K"\n',
      "config.toml",
    );
    expect(agentSettings(config, "my-claude").base_url).toBe("http://127.0.0.1:4000");
  });
});
