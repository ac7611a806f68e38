// The key stores in-process: what each kind reports for real-shaped files, that no detail ever holds
// a secret, that saves are 0600 and keep what else the files hold, and that removal takes exactly
// the store's credentials.

import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApiKeyStore, type ImportCheck, type KeyStore, shippedAdapter } from "../../src/adapters.js";
import {
  apiKeyConflict,
  type CliRunner,
  importRefusal,
  inspectStore,
  keyEnvironment,
  removeStore,
  saveApiKey,
  storeFiles,
} from "../../src/home/keystore.js";
import { dotenvValue, dotenvWith } from "../../src/home/keystores/files.js";
import { keyHelperCommand } from "../../src/home/keystores/key-helper.js";
import { yamlEntry, yamlWithEntry } from "../../src/home/keystores/yaml-entry.js";

const CANARY = "CANARY-5e3f9a";

/** The key store a shipped row reads its sign-in from (the status's, else the one `--with-api-key`
 * writes): the tests read the table's own data. */
function rowStore(name: string): KeyStore {
  const row = shippedAdapter(name);
  if (row === undefined) throw new Error(`no row ${name}`);
  if (row.status.kind === "stored") return row.status.store;
  const login = row.login;
  if ((login.kind === "command" || login.kind === "interactive") && login.apiKey !== undefined)
    return login.apiKey;
  throw new Error(`${name} reads no key store`);
}

function importCheck(name: string): ImportCheck {
  const login = shippedAdapter(name)?.login;
  const check = login?.kind === "command" ? login.import?.[0]?.accept : undefined;
  if (check === undefined) throw new Error(`${name} imports nothing`);
  return check;
}

const CLAUDE_KEY = rowStore("claude");
const CLAUDE_ACCOUNT = rowStore("claude-ai");
const CODEX = rowStore("codex") as ApiKeyStore;
const GEMINI = rowStore("gemini") as ApiKeyStore;
const QWEN = rowStore("qwen") as ApiKeyStore;
const DSH = rowStore("dsh") as ApiKeyStore;
const GROK = rowStore("grok");
const PI = rowStore("pi");

let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-keystore-"));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function put(relative: string, text: string, mode = 0o600): void {
  mkdirSync(join(home, relative, ".."), { recursive: true });
  writeFileSync(join(home, relative), text);
  chmodSync(join(home, relative), mode);
}

function read(relative: string): string {
  return readFileSync(join(home, relative), "utf8");
}

function mode(relative: string): number {
  return statSync(join(home, relative)).mode & 0o777;
}

const noCli: CliRunner = async () => {
  throw new Error("this store does not run its CLI");
};

/** Inspects and checks that the detail never carries the canary. */
async function inspect(store: KeyStore, options: Parameters<typeof inspectStore>[2] = {}) {
  const result = await inspectStore(store, home, options);
  expect(result.detail).not.toContain(CANARY);
  return result;
}

describe("inspectStore", () => {
  it("claude api key: signed out, then signed in once the key and its helper are there", async () => {
    expect(await inspect(CLAUDE_KEY)).toEqual({ state: "signed-out", detail: "no API key stored" });
    put(".anthropic-api-key", `sk-ant-${CANARY}\n`);
    expect((await inspect(CLAUDE_KEY)).state).toBe("signed-out");
    put(
      ".claude/settings.json",
      JSON.stringify({ apiKeyHelper: keyHelperCommand(join(home, ".anthropic-api-key")) }),
    );
    expect(await inspect(CLAUDE_KEY)).toEqual({
      state: "signed-in",
      detail: "API key file present, used through apiKeyHelper",
    });
    put(".claude/settings.json", JSON.stringify({ apiKeyHelper: "echo other" }));
    expect((await inspect(CLAUDE_KEY)).state).toBe("unknown");
  });

  it("claude api key: a malformed key file is not a sign-in, and a subscription beside it is named", async () => {
    put(".anthropic-api-key", `sk ant ${CANARY}\n`);
    put(".claude/.credentials.json", JSON.stringify({ claudeAiOauth: { refreshToken: CANARY } }));
    const result = await inspect(CLAUDE_KEY);
    expect(result.state).toBe("signed-out");
    expect(result.detail).toContain("also holds a Claude subscription sign-in");
  });

  it("claude account: renewable, expiring, expired, and a loose mode noted", async () => {
    const now = new Date("2026-06-01T00:00:00Z");
    expect((await inspect(CLAUDE_ACCOUNT, { now, platform: "linux" })).state).toBe("signed-out");
    put(
      ".claude/.credentials.json",
      JSON.stringify({
        claudeAiOauth: { accessToken: CANARY, refreshToken: CANARY, subscriptionType: "max" },
      }),
      0o644,
    );
    expect(await inspect(CLAUDE_ACCOUNT, { now, platform: "linux" })).toEqual({
      state: "signed-in",
      detail: "Claude subscription sign-in (max), renewable (readable by others: chmod 600 it)",
    });
    put(
      ".claude/.credentials.json",
      JSON.stringify({
        claudeAiOauth: { accessToken: CANARY, expiresAt: Date.parse("2026-12-31T12:00:00Z") },
      }),
    );
    expect(await inspect(CLAUDE_ACCOUNT, { now, platform: "linux" })).toEqual({
      state: "signed-in",
      detail: "Claude subscription sign-in, expires 2026-12-31",
    });
    const later = new Date("2027-01-02T00:00:00Z");
    expect(await inspect(CLAUDE_ACCOUNT, { now: later, platform: "linux" })).toEqual({
      state: "signed-out",
      detail: "Claude subscription sign-in expired on 2026-12-31",
    });
  });

  it("claude account on macOS: the keychain holds the tokens, the config records the account", async () => {
    expect((await inspect(CLAUDE_ACCOUNT, { platform: "darwin" })).state).toBe("signed-out");
    put(".claude/.claude.json", JSON.stringify({ oauthAccount: { emailAddress: `${CANARY}@example.com` } }));
    expect(await inspect(CLAUDE_ACCOUNT, { platform: "darwin" })).toEqual({
      state: "signed-in",
      detail: "Claude subscription sign-in (tokens in the macOS keychain)",
    });
  });

  it("codex: API key and ChatGPT sign-in told apart; a keyring config is unknown", async () => {
    expect(await inspect(CODEX)).toEqual({ state: "signed-out", detail: "no auth.json" });
    put("auth.json", JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: CANARY }));
    expect(await inspect(CODEX)).toEqual({ state: "signed-in", detail: "API key in auth.json" });
    put("auth.json", JSON.stringify({ OPENAI_API_KEY: null, tokens: { refresh_token: CANARY } }));
    expect(await inspect(CODEX)).toEqual({ state: "signed-in", detail: "ChatGPT sign-in in auth.json" });
    put("auth.json", "{not json");
    expect((await inspect(CODEX)).state).toBe("unknown");
    put("auth.json", JSON.stringify({ OPENAI_API_KEY: null, tokens: null }));
    expect((await inspect(CODEX)).state).toBe("signed-out");
  });

  it("codex: cli_auth_credentials_store = keyring makes a missing auth.json unknown", async () => {
    put("config.toml", 'cli_auth_credentials_store = "keyring"\n');
    expect((await inspect(CODEX)).state).toBe("unknown");
  });

  it("gemini, qwen, dsh: the key where the CLI reads it", async () => {
    put(".gemini/.env", `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:1\nGEMINI_API_KEY=${CANARY}\n`);
    expect(await inspect(GEMINI)).toEqual({ state: "signed-in", detail: "API key in .gemini/.env" });
    put(".gemini/settings.json", JSON.stringify({ security: { auth: { selectedType: "oauth-personal" } } }));
    expect((await inspect(GEMINI)).state).toBe("unknown");

    expect((await inspect(QWEN)).state).toBe("signed-out");
    put(
      ".qwen/settings.json",
      JSON.stringify({ env: { OPENAI_API_KEY: CANARY }, security: { auth: { selectedType: "openai" } } }),
    );
    expect(await inspect(QWEN)).toEqual({ state: "signed-in", detail: "API key in .qwen/settings.json" });

    expect((await inspect(DSH)).state).toBe("signed-out");
    put(".dsh/.credentials.yaml", `refs:\n  DEEPSEEK_API_KEY: "${CANARY}"\n`);
    expect(await inspect(DSH)).toEqual({ state: "signed-in", detail: "API key in .dsh/.credentials.yaml" });
  });

  it("grok and pi: sign-ins from their own logins, keys in their config", async () => {
    expect((await inspect(GROK)).state).toBe("signed-out");
    put(".grok/auth.json", "{}");
    expect((await inspect(GROK)).state).toBe("signed-out");
    put(".grok/config.toml", `[models.grok]\napi_key = "${CANARY}"\n`);
    expect(await inspect(GROK)).toEqual({ state: "signed-in", detail: "API key in .grok/config.toml" });
    put(".grok/auth.json", JSON.stringify({ default: { token: CANARY } }));
    expect(await inspect(GROK)).toEqual({ state: "signed-in", detail: "1 sign-in from its own login" });

    put(".pi/agent/auth.json", "{}");
    expect((await inspect(PI)).state).toBe("signed-out");
    put(
      ".pi/agent/models.json",
      JSON.stringify({
        providers: { mock: { baseUrl: "http://127.0.0.1:1/v1", apiKey: CANARY, models: [] } },
      }),
    );
    put(".pi/agent/auth.json", JSON.stringify({ openai: { type: "api_key", key: CANARY } }));
    expect(await inspect(PI)).toEqual({
      state: "signed-in",
      detail: "1 API key in auth.json; 1 custom provider with a key in models.json",
    });
  });

  it("reads nothing bigger than it needs and never throws", async () => {
    put("auth.json", `{"x":"${"a".repeat(2 * 1024 * 1024)}"}`);
    expect((await inspect(CODEX)).state).toBe("unknown");
    mkdirSync(join(home, ".anthropic-api-key"));
    expect((await inspect(CLAUDE_KEY)).state).toBe("unknown");
  });
});

describe("saveApiKey and removeStore", () => {
  it("claude: key 0600, helper added beside the other settings, both removed again", async () => {
    put(
      ".claude/settings.json",
      JSON.stringify({ env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:1" } }),
      0o644,
    );
    await saveApiKey(CLAUDE_KEY as ApiKeyStore, home, `sk-ant-${CANARY}`, noCli);
    expect(read(".anthropic-api-key")).toBe(`sk-ant-${CANARY}\n`);
    expect(mode(".anthropic-api-key")).toBe(0o600);
    expect(mode(".claude/settings.json")).toBe(0o600);
    const settings = JSON.parse(read(".claude/settings.json"));
    expect(settings).toEqual({
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:1" },
      apiKeyHelper: keyHelperCommand(join(home, ".anthropic-api-key")),
    });
    expect(read(".claude/settings.json")).not.toContain(CANARY);
    expect((await inspectStore(CLAUDE_KEY, home)).state).toBe("signed-in");

    put(".claude/.credentials.json", "{}");
    const removed = await removeStore(CLAUDE_KEY, home);
    expect(removed).toEqual({
      removed: [".anthropic-api-key", "apiKeyHelper in .claude/settings.json"],
      kept: [],
    });
    expect(JSON.parse(read(".claude/settings.json"))).toEqual({
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:1" },
    });
    // The subscription file is not the API-key store's to remove.
    expect(readdirSync(join(home, ".claude")).sort()).toEqual([".credentials.json", "settings.json"]);
  });

  it("claude: a helper scv did not write stays on removal", async () => {
    put(".claude/settings.json", JSON.stringify({ apiKeyHelper: "vault read key" }));
    expect(await removeStore(CLAUDE_KEY, home)).toEqual({
      removed: [],
      kept: ["the apiKeyHelper in .claude/settings.json (scv did not write it)"],
    });
  });

  it("claude: settings that are not a JSON object are never overwritten, and no key is left", async () => {
    put(".claude/settings.json", "[1, 2]");
    await expect(saveApiKey(CLAUDE_KEY as ApiKeyStore, home, CANARY, noCli)).rejects.toThrow(
      /not a JSON object/,
    );
    expect(read(".claude/settings.json")).toBe("[1, 2]");
    expect(readdirSync(home)).toEqual([".claude"]);
  });

  it("codex: runs the CLI's own login with the key on stdin; a failure puts the old file back", async () => {
    const calls: { args: readonly string[]; input: string }[] = [];
    const ok: CliRunner = async (args, input) => {
      calls.push({ args, input });
      put("auth.json", JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: input.trim() }));
      return { code: 0, stdout: "", stderr: "", timedOut: false };
    };
    await saveApiKey(CODEX, home, CANARY, ok);
    expect(calls).toEqual([{ args: ["login", "--with-api-key"], input: `${CANARY}\n` }]);

    const before = read("auth.json");
    const broken: CliRunner = async () => {
      put("auth.json", '{"auth_mo');
      return { code: 1, stdout: "", stderr: CANARY, timedOut: false };
    };
    const failure = saveApiKey(CODEX, home, "other", broken);
    await expect(failure).rejects.toThrow("its `login --with-api-key` failed (exit 1)");
    await expect(failure).rejects.not.toThrow(CANARY);
    expect(read("auth.json")).toBe(before);
  });

  it("codex: a ChatGPT sign-in being replaced is reported", async () => {
    put("auth.json", JSON.stringify({ tokens: { refresh_token: CANARY } }));
    expect(await apiKeyConflict(CODEX, home)).toBe(
      "this home held a ChatGPT sign-in; the API key replaces it",
    );
  });

  it("gemini: keeps the .env's endpoint and other settings; removal takes only what scv set", async () => {
    put(".gemini/.env", "GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:1\nGEMINI_API_KEY=old\n");
    put(".gemini/settings.json", JSON.stringify({ general: { disableAutoUpdate: true } }));
    await saveApiKey(GEMINI, home, CANARY, noCli);
    expect(read(".gemini/.env")).toBe(
      `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:1\nGEMINI_API_KEY=${CANARY}\n`,
    );
    expect(JSON.parse(read(".gemini/settings.json"))).toEqual({
      general: { disableAutoUpdate: true },
      security: { auth: { selectedType: "gemini-api-key" } },
    });
    expect(mode(".gemini/.env")).toBe(0o600);
    await removeStore(GEMINI, home);
    expect(read(".gemini/.env")).toBe("GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:1\n");
    expect(JSON.parse(read(".gemini/settings.json"))).toEqual({ general: { disableAutoUpdate: true } });
  });

  it("gemini: the stored key is given as GEMINI_API_KEY too, and nothing when none is stored; qwen's is not", async () => {
    expect(await keyEnvironment(GEMINI, home)).toEqual({});
    await saveApiKey(GEMINI, home, CANARY, noCli);
    expect(await keyEnvironment(GEMINI, home)).toEqual({ GEMINI_API_KEY: CANARY });
    await saveApiKey(QWEN, home, CANARY, noCli);
    expect(await keyEnvironment(QWEN, home)).toEqual({});
    await removeStore(GEMINI, home);
    expect(await keyEnvironment(GEMINI, home)).toEqual({});
  });

  it("gemini, qwen: a sign-in the user had chosen stays after logout; one login replaced comes back", async () => {
    // The user's own choice of the API key, beside another setting of theirs, before any login.
    const mine = { security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } } };
    put(".gemini/settings.json", JSON.stringify(mine));
    await saveApiKey(GEMINI, home, CANARY, noCli);
    expect((await removeStore(GEMINI, home)).kept).toEqual([
      "security.auth.selectedType in .gemini/settings.json, which scv's sign-in did not set",
    ]);
    expect(JSON.parse(read(".gemini/settings.json"))).toEqual(mine);

    // Another sign-in the user had chosen: login switches it to the key, logout switches it back.
    put(".qwen/settings.json", JSON.stringify({ security: { auth: { selectedType: "qwen-oauth" } } }));
    await saveApiKey(QWEN, home, CANARY, noCli);
    expect(JSON.parse(read(".qwen/settings.json")).security.auth.selectedType).toBe("openai");
    await removeStore(QWEN, home);
    expect(JSON.parse(read(".qwen/settings.json"))).toEqual({
      security: { auth: { selectedType: "qwen-oauth" } },
    });

    // A choice the user made after the login is theirs too.
    put(".gemini/settings.json", "{}");
    await saveApiKey(GEMINI, home, CANARY, noCli);
    put(".gemini/settings.json", JSON.stringify({ security: { auth: { selectedType: "oauth-personal" } } }));
    await removeStore(GEMINI, home);
    expect(JSON.parse(read(".gemini/settings.json"))).toEqual({
      security: { auth: { selectedType: "oauth-personal" } },
    });
    // And the record of what login wrote goes with the sign-out.
    expect(readdirSync(join(home, ".scv"))).toEqual([]);
  });

  it("qwen: the key joins the env block beside the endpoint", async () => {
    put(".qwen/settings.json", JSON.stringify({ env: { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" } }));
    await saveApiKey(QWEN, home, CANARY, noCli);
    expect(JSON.parse(read(".qwen/settings.json"))).toEqual({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:1/v1", OPENAI_API_KEY: CANARY },
      security: { auth: { selectedType: "openai" } },
    });
    await removeStore(QWEN, home);
    expect(JSON.parse(read(".qwen/settings.json"))).toEqual({
      env: { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
    });
  });

  it("dsh: refs.<variable> written, read back and removed with the file", async () => {
    await saveApiKey(DSH, home, CANARY, noCli);
    expect(read(".dsh/.credentials.yaml")).toBe(`refs:\n  DEEPSEEK_API_KEY: "${CANARY}"\n`);
    expect((await removeStore(DSH, home)).removed).toEqual([".dsh/.credentials.yaml"]);
    expect(readdirSync(join(home, ".dsh"))).toEqual([]);
  });

  it("pi: logout removes auth.json, and only the providers' keys from models.json", async () => {
    put(".pi/agent/auth.json", JSON.stringify({ anthropic: { type: "api_key", key: CANARY } }));
    const models = {
      providers: {
        mock: {
          baseUrl: "http://127.0.0.1:1/v1",
          api: "openai-completions",
          apiKey: CANARY,
          models: [{ id: "m" }],
        },
        local: { baseUrl: "http://127.0.0.1:2/v1", models: [] },
      },
    };
    put(".pi/agent/models.json", JSON.stringify(models));
    put(".pi/agent/settings.json", "{}");
    expect((await removeStore(PI, home)).removed).toEqual([
      ".pi/agent/auth.json",
      "the apiKey of mock in .pi/agent/models.json",
    ]);
    expect(readdirSync(join(home, ".pi/agent")).sort()).toEqual(["models.json", "settings.json"]);
    const left = read(".pi/agent/models.json");
    expect(left).not.toContain(CANARY);
    expect(JSON.parse(left)).toEqual({
      providers: {
        mock: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", models: [{ id: "m" }] },
        local: { baseUrl: "http://127.0.0.1:2/v1", models: [] },
      },
    });
    expect(statSync(join(home, ".pi/agent/models.json")).mode & 0o777).toBe(0o600);
    expect(await inspectStore(PI, home)).toMatchObject({ state: "signed-out" });
    // Nothing left to remove: a second logout changes nothing.
    expect(await removeStore(PI, home)).toEqual({ removed: [], kept: [] });
  });

  it("pi: a models.json scv cannot read as JSON is left, and said", async () => {
    put(".pi/agent/models.json", "{ not json");
    expect(await removeStore(PI, home)).toEqual({
      removed: [],
      kept: [".pi/agent/models.json (not the JSON scv knows: look in it for keys)"],
    });
  });

  it("every store names its files relative to the home", () => {
    for (const store of [CLAUDE_KEY, CLAUDE_ACCOUNT, CODEX, GEMINI, QWEN, DSH, GROK, PI]) {
      for (const file of storeFiles(store)) expect(file.startsWith("/")).toBe(false);
    }
  });
});

describe("import", () => {
  it("copies only an API-key auth.json", () => {
    expect(
      importRefusal(importCheck("codex"), JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: CANARY })),
    ).toBe(undefined);
    const chatgpt = JSON.stringify({ OPENAI_API_KEY: CANARY, tokens: { refresh_token: CANARY } });
    expect(importRefusal(importCheck("codex"), chatgpt)).toMatch(/ChatGPT sign-in/);
    expect(importRefusal(importCheck("codex"), "{}")).toBe("it holds no API key");
    expect(importRefusal(importCheck("codex"), "nope")).toBe("it is not a JSON object");
  });
});

describe("file shapes", () => {
  it("dotenv: the last assignment wins, quotes and export are understood, other lines kept", () => {
    expect(dotenvValue('export A="1"\nB=2\nA=3\n', "A")).toBe("3");
    expect(dotenvValue("A='x y'\n", "A")).toBe("x y");
    expect(dotenvWith("A=1\n# note\nB=2\nA=4\n", "A", "9")).toBe("# note\nB=2\nA=9\n");
    expect(dotenvWith("A=1\n", "A", undefined)).toBe("");
  });

  it("dsh refs: other top-level keys and refs survive", () => {
    const text = "profile: headless\nrefs:\n  OTHER: x\n";
    const written = yamlWithEntry(text, "refs", "DEEPSEEK_API_KEY", "k");
    expect(written).toBe('profile: headless\nrefs:\n  OTHER: x\n  DEEPSEEK_API_KEY: "k"\n');
    expect(yamlEntry(written, "refs", "DEEPSEEK_API_KEY")).toBe("k");
    expect(yamlWithEntry(written, "refs", "DEEPSEEK_API_KEY", undefined)).toBe(text);
  });
});
