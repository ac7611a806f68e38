// A job's permission question and its answer as files: pending until answered, an answer counted
// only for its own question's id, never two answers, an answer under no question not taken, and a
// question's files private and gone once it is settled. An answer file that is not one the answerer
// wrote: a symbolic link (to a file holding a valid answer) is refused — the turn does not take it,
// and a real answer replaces it; a FIFO hangs neither the turn looking for its answer nor the `scv
// mcp` server asking whether the question is pending (a FIFO's read would block the whole process,
// so that case runs in a child with a time limit).

import { execFile, execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  endQuestions,
  giveAnswer,
  pendingApproval,
  postQuestion,
  questionFate,
  takeAnswer,
  withdrawQuestion,
} from "../../src/home/approvals.js";
import { sendStateNotesTo } from "../../src/home/state-file.js";
import { jobFile } from "../../src/home/turn-files.js";
import { builtChild } from "../helpers/child.js";

const JOB = "gemini-aaaaaa.q1w2e3r4";
const QUESTION = {
  agent: "gemini",
  tool: "execute",
  summary: "$ touch probe.txt",
  answers: ["once", "always", "reject"] as ("once" | "always" | "reject")[],
};
let home: string;
let env: Record<string, string>;
let notes: string[];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "scv-approvals-"));
  env = { SCV_HOME: home };
  mkdirSync(join(home, "turns"), { recursive: true, mode: 0o700 });
  notes = [];
  sendStateNotesTo((line) => notes.push(line));
});
afterEach(() => {
  sendStateNotesTo(undefined);
  rmSync(home, { recursive: true, force: true });
});

describe("a job's permission question", () => {
  it("is pending, private, until its own id is answered; then the turn takes the answer and both files go", () => {
    const ask = postQuestion(JOB, QUESTION, env);
    expect(ask.id).toMatch(/^[0-9a-z]{8}$/);
    expect(pendingApproval(JOB, env)).toEqual(ask);
    expect(statSync(jobFile(JOB, "ask", env)).mode & 0o777).toBe(0o600);

    expect(giveAnswer(JOB, "zzzzzzzz", "once", env)).toBe("gone");
    expect(existsSync(jobFile(JOB, "answer", env))).toBe(false);
    expect(takeAnswer(JOB, ask.id, env)).toBeUndefined();

    expect(giveAnswer(JOB, ask.id, "always", env)).toBe("answered");
    expect(statSync(jobFile(JOB, "answer", env)).mode & 0o777).toBe(0o600);
    // Answered: no longer pending, and a second answer is not taken.
    expect(pendingApproval(JOB, env)).toBeUndefined();
    expect(giveAnswer(JOB, ask.id, "reject", env)).toBe("gone");

    expect(takeAnswer(JOB, ask.id, env)).toBe("always");
    expect(existsSync(jobFile(JOB, "ask", env))).toBe(false);
    expect(existsSync(jobFile(JOB, "answer", env))).toBe(false);
    expect(giveAnswer(JOB, ask.id, "once", env)).toBe("gone");
  });

  it("an answer to an earlier question is not the next one's", () => {
    const first = postQuestion(JOB, QUESTION, env);
    expect(giveAnswer(JOB, first.id, "once", env)).toBe("answered");
    // The turn stopped asking before it took it (its time ran out), then asked again.
    withdrawQuestion(JOB, first.id, env);
    const second = postQuestion(JOB, QUESTION, env);
    expect(second.id).not.toBe(first.id);
    expect(takeAnswer(JOB, second.id, env)).toBeUndefined();
    expect(pendingApproval(JOB, env)?.id).toBe(second.id);
    // A stale answer of another id is dropped by the turn that looks for its own.
    writeFileSync(
      jobFile(JOB, "answer", env),
      `${JSON.stringify({ version: 1, id: first.id, answer: "once" })}\n`,
    );
    expect(takeAnswer(JOB, second.id, env)).toBeUndefined();
    expect(existsSync(jobFile(JOB, "answer", env))).toBe(false);
  });

  it("a question withdrawn is no longer pending; a damaged file is no question", () => {
    const ask = postQuestion(JOB, QUESTION, env);
    withdrawQuestion(JOB, ask.id, env);
    expect(pendingApproval(JOB, env)).toBeUndefined();
    expect(giveAnswer(JOB, ask.id, "once", env)).toBe("gone");
    writeFileSync(jobFile(JOB, "ask", env), "{not json");
    expect(pendingApproval(JOB, env)).toBeUndefined();
  });

  it("remembers what became of each question it asked, privately, until the turn ends", () => {
    const first = postQuestion(JOB, QUESTION, env);
    expect(questionFate(JOB, first.id, env)).toEqual({ state: "asked" });
    expect(statSync(jobFile(JOB, "questions", env)).mode & 0o777).toBe(0o600);
    expect(giveAnswer(JOB, first.id, "always", env)).toBe("answered");
    expect(takeAnswer(JOB, first.id, env)).toBe("always");
    // Its own withdrawal after the answer was taken changes nothing.
    withdrawQuestion(JOB, first.id, env);
    expect(questionFate(JOB, first.id, env)).toEqual({ state: "answered", answer: "always" });
    const second = postQuestion(JOB, QUESTION, env);
    withdrawQuestion(JOB, second.id, env);
    expect(questionFate(JOB, second.id, env)).toEqual({ state: "withdrawn" });
    expect(questionFate(JOB, first.id, env)).toEqual({ state: "answered", answer: "always" });
    expect(questionFate(JOB, "zzzzzzzz", env)).toBeUndefined();
    endQuestions(JOB, env);
    expect(existsSync(jobFile(JOB, "questions", env))).toBe(false);
    expect(questionFate(JOB, first.id, env)).toBeUndefined();
  });
});

describe("an answer file that is a symbolic link", () => {
  it("is refused: the turn does not take it, the question stays pending, and approve replaces it", () => {
    const ask = postQuestion(JOB, QUESTION, env);
    const planted = join(home, "planted.json");
    writeFileSync(planted, `${JSON.stringify({ version: 1, id: ask.id, answer: "always" })}\n`);
    const answer = jobFile(JOB, "answer", env);
    symlinkSync(planted, answer);

    expect(takeAnswer(JOB, ask.id, env)).toBeUndefined();
    expect(pendingApproval(JOB, env)?.id).toBe(ask.id);
    expect(notes).toEqual([
      `scv: note: skipped ${answer}: a symbolic link, which scv does not follow in its home — remove it\n`,
    ]);

    expect(giveAnswer(JOB, ask.id, "once", env)).toBe("answered");
    expect(takeAnswer(JOB, ask.id, env)).toBe("once");
    // The link's target was never written.
    expect(JSON.parse(readFileSync(planted, "utf8"))).toMatchObject({ answer: "always" });
  });
});

describe("an answer file that is a FIFO", () => {
  it("hangs neither the turn taking its answer nor the server asking what is pending", async () => {
    const ask = postQuestion(JOB, QUESTION, env);
    execFileSync("mkfifo", [jobFile(JOB, "answer", env)]);
    // Bundled, not through tsx: a tenth of the CPU (test/helpers/child.ts).
    const child = await builtChild(join(import.meta.dirname, "approvals-fifo-child.ts"));
    const { stdout } = await promisify(execFile)(process.execPath, [child, home, JOB, ask.id], {
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    expect(JSON.parse(stdout)).toEqual([null, ask.id, "answered", "reject"]);
  }, 30_000);
});
