import { describe, expect, it } from "vitest";
import { MAX_SUMMARY_CHARS, summarizeTool } from "../../src/parsers/tool-summary.js";

describe("summarizeTool", () => {
  it.each([
    ["Bash", { command: "npm test -- --run", description: "Run tests" }, "$ npm test -- --run"],
    ["run_shell_command", { command: "ls -la" }, "$ ls -la"],
    ["shell", { command: ["bash", "-lc", "git status"] }, "$ bash -lc git status"],
    ["Edit", { file_path: "/repo/src/a.ts", old_string: "a", new_string: "b" }, "edit /repo/src/a.ts"],
    ["write_file", { file_path: "notes.md", content: "x" }, "edit notes.md"],
    ["create_file", { path: "b.ts" }, "edit b.ts"],
    ["Read", { file_path: "README.md" }, "read README.md"],
    ["read_file", { absolute_path: "/x/y.ts" }, "read /x/y.ts"],
    ["Grep", { pattern: "TODO", path: "src" }, "search: TODO"],
    ["Glob", { pattern: "**/*.ts" }, "search: **/*.ts"],
    ["WebSearch", { query: "zod looseObject" }, "search: zod looseObject"],
    ["LS", { path: "src" }, "list src"],
    ["WebFetch", { url: "https://example.com/?token=abc123" }, "fetch https://example.com/?token=…"],
    ["TodoWrite", { todos: [] }, "update todos"],
    ["mcp__github__create_issue", { title: "x" }, "mcp__github__create_issue"],
    ["Task", {}, "Task"],
  ])("%s %j → %s", (name, input, expected) => {
    expect(summarizeTool(name, input)).toBe(expected);
  });

  it("keeps to one line, redacted before it is shortened", () => {
    const summary = summarizeTool("Bash", {
      command: `curl -H "Authorization: Bearer abcdefghijklmnop"\n  https://api.example.com/${"x".repeat(300)}`,
    });
    expect(summary).toMatch(/^\$ curl -H "Authorization: Bearer …" https:\/\/api\.example\.com\/x+…$/);
    expect(summary).toHaveLength(MAX_SUMMARY_CHARS);
  });

  it("survives inputs that are not objects", () => {
    expect(summarizeTool("Bash", "ls")).toBe("Bash");
    expect(summarizeTool("Read", null)).toBe("Read");
  });
});
