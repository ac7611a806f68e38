// A git repository with a change to review, and fake reviewers' replies (test/e2e/review*.test.ts).

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { expect } from "vitest";
import type { World } from "./scv.js";

export function git(cwd: string, args: readonly string[]): string {
  return execFileSync("git", [...args], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/** A repository with one commit, and an uncommitted change to review. */
export function repository(world: World): void {
  git(world.project, ["init", "-q", "-b", "main"]);
  writeFileSync(join(world.project, "calc.js"), "export const add = (a, b) => a + b;\n");
  git(world.project, ["add", "."]);
  git(world.project, ["commit", "-q", "-m", "first"]);
  writeFileSync(join(world.project, "calc.js"), "export const add = (a, b) => a - b;\n");
}

export const BLOCKER = {
  verdict: "request-changes",
  summary: "add subtracts",
  findings: [
    {
      severity: "blocker",
      file: "calc.js",
      line: 1,
      endLine: null,
      title: "add subtracts its arguments",
      body: "a - b is not a sum",
      suggestion: "a + b",
    },
  ],
};
export const APPROVE = { verdict: "approve", summary: "looks right", findings: [] };

/** Gives the agent's home a mode (every run), and a first run's mode before it. */
export function mode(world: World, agent: string, always: string, once?: string): void {
  const home = join(world.scvHome, "agents", agent);
  writeFileSync(join(home, ".fake-mode"), always);
  if (once !== undefined) writeFileSync(join(home, ".fake-mode-once"), once);
}

/** A reply file in the world; its path. */
export function replyFile(world: World, name: string, value: unknown): string {
  const path = join(world.root, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });

/** The document, checked against its published schema in docs/json/. */
export function documented(name: string, stdout: string): unknown {
  const path = join(import.meta.dirname, "..", "..", "docs", "json", `${name}.schema.json`);
  const check = ajv.compile(JSON.parse(readFileSync(path, "utf8")));
  const document: unknown = JSON.parse(stdout);
  expect(check(document) ? [] : check.errors).toEqual([]);
  return document;
}
