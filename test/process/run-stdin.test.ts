// startProcess with a stdin payload (a prompt the CLI reads on stdin): written whole, byte for byte,
// then closed; megabytes do not deadlock against an agent that writes before it reads; an agent that
// never reads it, or never starts, ends the turn as usual.

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ProcessExit, startProcess } from "../../src/process/run.js";

const NODE = process.execPath;

/** Node code that reads stdin to its end and prints its byte length and sha256. */
const DIGEST_STDIN = `
  const { createHash } = require("node:crypto");
  const hash = createHash("sha256");
  let bytes = 0;
  process.stdin.on("data", (chunk) => { bytes += chunk.length; hash.update(chunk); });
  process.stdin.on("end", () => console.log(JSON.stringify({ bytes, sha: hash.digest("hex") })));
`;

function run(
  code: string,
  stdin: string | undefined,
  file = NODE,
): Promise<ProcessExit & { stdout: string }> {
  let stdout = "";
  const child = startProcess({
    file,
    args: ["-e", code],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "" },
    graceMs: 500,
    timeoutMs: 60_000,
    stdin,
    onStdout: (chunk) => {
      stdout += chunk.toString("utf8");
    },
  });
  return child.done.then((end) => ({ ...end, stdout }));
}

function digest(text: string): { bytes: number; sha: string } {
  const buffer = Buffer.from(text, "utf8");
  return { bytes: buffer.length, sha: createHash("sha256").update(buffer).digest("hex") };
}

describe("startProcess with a stdin payload", () => {
  it("writes it byte for byte and closes stdin after it", async () => {
    const payload = "-x\n@README.md\n--help\n\tline — ✓ 日本語 🎉\n\n";
    const end = await run(DIGEST_STDIN, payload);
    expect(end.exitCode).toBe(0);
    expect(JSON.parse(end.stdout)).toEqual(digest(payload));
  });

  it("closes stdin at once for an empty payload", async () => {
    const end = await run(DIGEST_STDIN, "");
    expect(JSON.parse(end.stdout)).toEqual({ bytes: 0, sha: digest("").sha });
  });

  it("leaves stdin /dev/null without one", async () => {
    const end = await run(
      `const s = require("node:fs").fstatSync(0); console.log(s.isCharacterDevice() ? "null" : "pipe")`,
      undefined,
    );
    expect(end.stdout).toBe("null\n");
  });

  it("does not deadlock on megabytes against an agent that writes megabytes before it reads", async () => {
    const payload = "ünïcödé prompt line\n".repeat(400_000); // ~9 MB
    const end = await run(
      `process.stdout.write("o".repeat(8 * 1024 * 1024) + "\\n", () => { ${DIGEST_STDIN} });`,
      payload,
    );
    expect(end.exitCode).toBe(0);
    const [written, report] = end.stdout.split("\n");
    expect(written).toHaveLength(8 * 1024 * 1024);
    expect(JSON.parse(report ?? "")).toEqual(digest(payload));
  }, 60_000);

  it("ends normally when the agent exits without reading it (EPIPE)", async () => {
    const end = await run(`process.exit(3)`, "x".repeat(16 * 1024 * 1024));
    expect(end.exitCode).toBe(3);
    expect(end.spawnError).toBeUndefined();
  });

  it("reports a spawn failure as before", async () => {
    const end = await run("", "prompt", "/nonexistent/agent");
    expect(end.spawnError?.code).toBe("ENOENT");
  });
});
