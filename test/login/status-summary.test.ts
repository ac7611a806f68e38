// How scv condenses a CLI's own status output: the raw output names accounts or key fragments.

import { describe, expect, it } from "vitest";
import { summarizeStatus } from "../../src/commands/agents-status.js";

describe("summarizeStatus", () => {
  it("condenses codex's text without echoing it", () => {
    const raw = "API key configured - sk-mock-***y-key\nAuthentication is checked when you send a request.";
    expect(summarizeStatus("codex-text", true, raw)).toBe("signed in (API key)");
    expect(summarizeStatus("codex-text", false, "Not logged in")).toBe("not signed in");
    expect(summarizeStatus("codex-text", true, "Logged in using ChatGPT")).toBe(
      "signed in (ChatGPT account)",
    );
  });

  it("reads claude's JSON status", () => {
    const helper = JSON.stringify({ loggedIn: true, authMethod: "api_key_helper", email: "a@b.c" });
    expect(summarizeStatus("claude-json", true, helper)).toBe("signed in (API key)");
    expect(summarizeStatus("claude-json", false, JSON.stringify({ loggedIn: false }))).toBe("not signed in");
    expect(summarizeStatus("claude-json", true, "not json")).toBe("not signed in");
  });

  it("falls back to the exit status", () => {
    expect(summarizeStatus("exit-status", true, "user@example.com")).toBe("signed in");
    expect(summarizeStatus("exit-status", false, "")).toBe("not signed in");
  });
});
