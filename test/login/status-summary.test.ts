// How scv condenses a CLI's own status output: the raw output names accounts or key fragments.

import { describe, expect, it } from "vitest";
import type { StatusSummary } from "../../src/adapters.js";
import { summarizeStatus } from "../../src/agents/sign-in.js";
import { codex } from "../../src/table/codex.js";

/** Claude Code's `auth status --json`, as a row would read it. */
const CLAUDE_JSON: StatusSummary = {
  kind: "json",
  signedIn: "loggedIn",
  method: "authMethod",
  methods: [
    { value: "api_key_helper", means: "API key" },
    { value: "api_key", means: "API key" },
    { value: "claude.ai", means: "Claude account" },
  ],
};
const CODEX_TEXT = codex.status.summary;
const EXIT_STATUS: StatusSummary = { kind: "exit-status" };

describe("summarizeStatus", () => {
  it("condenses codex's text by the words its row names, without echoing it", () => {
    const raw = "API key configured - sk-mock-***y-key\nAuthentication is checked when you send a request.";
    expect(summarizeStatus(CODEX_TEXT, true, raw)).toBe("signed in (API key)");
    expect(summarizeStatus(CODEX_TEXT, false, "Not logged in")).toBe("not signed in");
    expect(summarizeStatus(CODEX_TEXT, true, "Logged in using ChatGPT")).toBe("signed in (ChatGPT account)");
  });

  it("reads a JSON status by the members a row names", () => {
    const helper = JSON.stringify({ loggedIn: true, authMethod: "api_key_helper", email: "a@b.c" });
    expect(summarizeStatus(CLAUDE_JSON, true, helper)).toBe("signed in (API key)");
    expect(summarizeStatus(CLAUDE_JSON, false, JSON.stringify({ loggedIn: false }))).toBe("not signed in");
    expect(summarizeStatus(CLAUDE_JSON, true, "not json")).toBe("not signed in");
    const subscription = JSON.stringify({ loggedIn: true, authMethod: "claude.ai" });
    expect(summarizeStatus(CLAUDE_JSON, true, subscription)).toBe("signed in (Claude account)");
    expect(summarizeStatus(CLAUDE_JSON, true, JSON.stringify({ loggedIn: true }))).toBe("signed in");
  });

  it("falls back to the exit status", () => {
    expect(summarizeStatus(EXIT_STATUS, true, "user@example.com")).toBe("signed in");
    expect(summarizeStatus(EXIT_STATUS, false, "")).toBe("not signed in");
  });
});
