// A session host reads its server's lines and its turns' lines through the bounded framer
// (transport/framing.ts): a 16 MiB answer passes whole, and in about the time it takes without a
// host (not 7 times that); a line longer than the bound from a connected client is refused in one line and that
// connection ended (the host stays, and serves the next turn); one from the server ends the server,
// the turn saying why. Through the built scv, against the scripted fake ACP agent.
// In the stress tier: lines of 16 and 64 MiB load the machine, and a bound in time compares two runs.

import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type AcpWorld, acpWorldPerTest, resultOf } from "../helpers/acp-world.js";
import { isAlive, survivors } from "../helpers/pids.js";
import { scv } from "../helpers/scv.js";

let world: AcpWorld;
acpWorldPerTest((created) => {
  world = created;
});

const MIB = 1024 * 1024;

/** What the host says to a raw client that sends `bytes` without a newline, up to its close. */
function sendRaw(socketPath: string, bytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let heard = "";
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      heard += text;
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(heard));
    socket.once("connect", () => {
      const block = Buffer.alloc(MIB, "x");
      let left = bytes;
      const more = () => {
        while (left > 0 && !socket.destroyed) {
          left -= block.length;
          if (!socket.write(block)) {
            socket.once("drain", more);
            return;
          }
        }
      };
      more();
    });
    setTimeout(
      () => reject(new Error(`the host never closed: heard ${heard.slice(0, 300)}`)),
      60_000,
    ).unref();
  });
}

describe("a session host's lines", () => {
  it("a 16 MiB answer passes through the host whole", async () => {
    const started = Date.now();
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "big 16"]);
    const hosted = Date.now() - started;
    expect(run.exitCode, run.stderr).toBe(0);
    const result = resultOf(run.stdout);
    expect(result.reply).toHaveLength(16 * MIB);
    expect(result.reply).toMatch(/^y+$/);
    const handle = result.conversation ?? "";
    expect(world.hostRecord(handle)).toBeDefined();
    // The same without a host, for the record (docs/benchmarks.md).
    world.useConfig('[defaults]\nsession_idle = "0"\n');
    const coldStart = Date.now();
    const cold = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "big 16"]);
    expect(cold.exitCode, cold.stderr).toBe(0);
    const direct = Date.now() - coldStart;
    console.log(`a 16 MiB line: ${hosted} ms through a session host, ${direct} ms without one`);
    // Read in linear time: a host that searched its whole buffer again for each chunk took 15 s,
    // against 2 s without it.
    expect(hosted).toBeLessThan(3 * direct + 2_000);
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("a client's line over 64 MiB is refused in one line and its connection ended; the host serves on", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "one"]);
    expect(run.exitCode, run.stderr).toBe(0);
    const handle = resultOf(run.stdout).conversation ?? "";
    const host = world.hostRecord(handle);
    const heard = await sendRaw(join(world.scvHome, "hosts", `${handle}.sock`), 80 * MIB);
    const lines = heard.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1] ?? "")).toEqual({
      scvHost: { refused: "the session host refused a line of more than 64 MiB from this turn" },
    });
    expect(isAlive(host?.scv.pid ?? 0)).toBe(true);
    const next = await scv(world, ["delegate", "-c", handle, "--json", "two"]);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(resultOf(next.stdout).reply).toBe("REPLY two (turn 2, mode default)");
    expect(world.agentPids()).toHaveLength(1);
    expect((await scv(world, ["kill", handle])).exitCode).toBe(0);
  });

  it("a server's line over 64 MiB ends the server, and the turn says scv ended it and why", async () => {
    const run = await scv(world, ["delegate", "gemini", "--transport", "acp", "--json", "big 65"]);
    expect(run.exitCode).toBe(1);
    expect(resultOf(run.stdout).error).toContain(
      "the session host ended gemini's ACP server: it wrote a line of more than 64 MiB, which scv does not pass on",
    );
    expect(await survivors(world.agentPids(), 10_000)).toEqual([]);
    expect(world.hostRecords()).toEqual([]);
  });
});
