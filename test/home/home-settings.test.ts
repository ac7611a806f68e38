// The values scv keeps in an agent home's own settings file before it starts the CLI there (Gemini
// CLI's start-up deletion of session files off, at every start) or its ACP server (Qwen Code's
// follow-up suggestions off): set where they differ, everything else kept, the file private; a file
// that is not a JSON object left as it is.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adapter } from "../../src/adapters.js";
import { applyHomeSettings, keepHomeSettings } from "../../src/home/home-settings.js";

const QWEN = adapter("qwen")?.acp?.homeSettings;
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-home-settings-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const file = () => join(home, ".qwen", "settings.json");
const read = () => JSON.parse(readFileSync(file(), "utf8")) as Record<string, unknown>;

describe("applyHomeSettings (Qwen Code's ACP row)", () => {
  it("the row turns Qwen Code's follow-up suggestions off in .qwen/settings.json", () => {
    expect(QWEN?.file).toBe(".qwen/settings.json");
    expect(QWEN?.values.map(({ path, value }) => [path.join("."), value])).toEqual([
      ["ui.enableFollowupSuggestions", false],
    ]);
  });

  it("creates the file, private, when there is none", async () => {
    if (QWEN === undefined) throw new Error("no homeSettings on qwen's row");
    expect(await applyHomeSettings(home, QWEN)).toBe(true);
    expect(read()).toEqual({ ui: { enableFollowupSuggestions: false } });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
  });

  it("keeps the key and the rest of the file, and writes nothing once the values are there", async () => {
    if (QWEN === undefined) throw new Error("no homeSettings on qwen's row");
    mkdirSync(join(home, ".qwen"), { mode: 0o700 });
    const settings = {
      env: { OPENAI_API_KEY: "sk-canary-key" },
      security: { auth: { selectedType: "openai" } },
      ui: { theme: "dark", enableFollowupSuggestions: true },
    };
    writeFileSync(file(), JSON.stringify(settings), { mode: 0o600 });
    expect(await applyHomeSettings(home, QWEN)).toBe(true);
    expect(read()).toEqual({ ...settings, ui: { theme: "dark", enableFollowupSuggestions: false } });
    const before = statSync(file()).mtimeMs;
    expect(await applyHomeSettings(home, QWEN)).toBe(false);
    expect(statSync(file()).mtimeMs).toBe(before);
  });

  it("leaves a file that is not a JSON object alone", async () => {
    if (QWEN === undefined) throw new Error("no homeSettings on qwen's row");
    mkdirSync(join(home, ".qwen"), { mode: 0o700 });
    writeFileSync(file(), "// comments\n{ not json", { mode: 0o600 });
    expect(await applyHomeSettings(home, QWEN)).toBe(false);
    expect(readFileSync(file(), "utf8")).toBe("// comments\n{ not json");
  });
});

describe("keepHomeSettings", () => {
  const row = (name: string) => {
    const found = adapter(name);
    if (found === undefined) throw new Error(`no ${name} row`);
    return found;
  };
  const gemini = () => JSON.parse(readFileSync(join(home, ".gemini", "settings.json"), "utf8")) as unknown;

  it("turns Gemini CLI's session clean-up off whichever way it starts, keeping what sign-in wrote", async () => {
    mkdirSync(join(home, ".gemini"), { mode: 0o700 });
    const signedIn = { security: { auth: { selectedType: "gemini-api-key" } }, general: { maxAttempts: 3 } };
    writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(signedIn), { mode: 0o600 });
    await keepHomeSettings(row("gemini"), home);
    expect(gemini()).toEqual({
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { maxAttempts: 3, sessionRetention: { enabled: false } },
    });
    rmSync(join(home, ".gemini"), { recursive: true });
    await keepHomeSettings(row("gemini"), home, true);
    expect(gemini()).toEqual({ general: { sessionRetention: { enabled: false } } });
  });

  it("keeps an ACP server's own only when the server starts", async () => {
    await keepHomeSettings(row("qwen"), home);
    expect(existsSync(file())).toBe(false);
    await keepHomeSettings(row("qwen"), home, true);
    expect(read()).toEqual({ ui: { enableFollowupSuggestions: false } });
  });
});
