// What a warm session host costs and when there is none, with the BUILT scv and the real Gemini CLI,
// Qwen Code, OpenCode, Copilot CLI and pi (through pi-acp) over ACP against a loopback mock: a first
// turn keeps its server in a session host, whose memory `scv ps --json` reports (the host and its
// server's process tree, from /proc) and docs/transports.md quotes; a first turn refused for a model the server does not offer
// (on the command line, or in scv's config) exits 2 and leaves no host and nothing running — a
// refusal of another value is then told before any server starts, from what the server offered
// before, and the same value asked for again is put to the server.
// Measured numbers are printed (`console.log`): docs/benchmarks.md keeps them.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, type Lab } from "./harness.js";
import {
  agentToml,
  BIN,
  dummyKey,
  expectNothingLeft,
  named,
  newCanary,
  newLab,
  turnResult,
  writeEndpoint,
} from "./kit.js";
import { type MockServer, startMock } from "./mock/server.mjs";
import { PROFILES, type Profile, row } from "./profiles.js";

const CLIS = ["gemini", "qwen", "opencode", "copilot", "pi"];
const profiles = PROFILES.filter((profile) => CLIS.includes(profile.cli));

interface HostRow {
  readonly kind?: string;
  readonly handle: string;
  readonly rssBytes?: number | null;
  readonly scvPid?: number;
}

describe.skipIf(BIN === undefined).each(profiles)(
  "warm hosts: scv → $cli --transport acp",
  (profile: Profile) => {
    const { cli } = profile;
    const who = `${named(cli)} over ACP`;
    let trap: MockServer;
    let mock: MockServer;
    let lab: Lab;
    let writeConfig: (extra: Record<string, string>) => void = () => {};

    beforeAll(async () => {
      trap = await startMock({ shape: "openai-chat", text: "TRAP" });
      mock = await startMock({ shape: profile.cli === "gemini" ? "gemini" : "openai-chat" });
      const key = dummyKey(cli);
      lab = newLab(cli, newCanary(), trap);
      const endpoint = await writeEndpoint(lab, profile, mock, key);
      const model: Record<string, string> =
        row(cli).acp?.modelArgs === undefined ? {} : { model: endpoint.config.model };
      writeConfig = (extra) =>
        lab.writeConfig(
          agentToml(cli, { transport: "acp", session_idle: "5m", ...model, ...extra }, endpoint.agentEnv),
        );
      writeConfig({});
      if (profile.signIn === "api-key") {
        const login = await lab.scv(["agents", "login", cli, "--with-api-key"], { input: `${key}\n` });
        expect(login.code, describeRun(login)).toBe(0);
      }
    });

    afterAll(async () => {
      await mock?.close();
      await trap?.close();
      await lab?.[Symbol.asyncDispose]();
    });

    const limitMs = (Number.parseInt(profile.turnTimeout, 10) + 30) * 1000;
    const delegate = (args: readonly string[]) =>
      lab.scv(["delegate", ...args, "--json", "--timeout", profile.turnTimeout], { limitMs });

    function hostRecords(): string[] {
      const dir = join(lab.scvHome, "hosts");
      return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".json")) : [];
    }

    it("a warm host's memory: scv ps --json reports the host and its server's tree", async () => {
      const run = await delegate([cli, `warm memory turn for ${cli}`]);
      expect(run.code, `${who}\n${describeRun(run)}`).toBe(0);
      const handle = turnResult(run).conversation ?? "";
      const ps = await lab.scv(["ps", "--json"]);
      expect(ps.code, describeRun(ps)).toBe(0);
      const host = (JSON.parse(ps.stdout) as HostRow[]).find((each) => each.kind === "host");
      expect(host?.handle, `${who}: no session host listed\n${ps.stdout}`).toBe(handle);
      const rss = host?.rssBytes ?? 0;
      // A Node process alone holds more than 30 MB resident.
      expect(rss, `${who}: no memory reported\n${ps.stdout}`).toBeGreaterThan(30 * 1024 * 1024);
      const own = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${host?.scvPid}/status`, "utf8"))?.[1];
      console.log(
        `${who}: an idle warm host holds ${(rss / 1024 / 1024).toFixed(0)} MiB (RSS, host + server tree; the host itself ${Math.round(Number(own) / 1024)} MiB)`,
      );
      const text = await lab.scv(["ps"]);
      expect(text.stdout).toMatch(new RegExp(`${handle}.*session host, idle .*MB`));
      const killed = await lab.scv(["kill", handle]);
      expect(killed.code, describeRun(killed)).toBe(0);
      await expectNothingLeft(lab, cli, `scv kill ${handle}`);
    });

    // A server that takes its model at launch (Copilot's --model) runs whatever it is given: its
    // provider's answer is the refusal.
    it.runIf(row(cli).acp?.modelArgs === undefined)(
      "a first turn asking for a model the server does not offer: exit 2, no host, nothing left; the next told at once",
      async () => {
        // Whatever an earlier test left is ended, and what a server offered before forgotten.
        for (const name of hostRecords()) await lab.scv(["kill", name.replace(/\.json$/, "")]);
        rmSync(join(lab.scvHome, "cache", "acp-offers.json"), { force: true });
        const times: string[] = [];
        /** A refused first turn: exit 2 naming the value, no host, nothing running; whether it was
         * told from what the server offered before. */
        const refused = async (what: string, args: readonly string[], value: string) => {
          const run = await delegate([cli, ...args, `refused turn for ${cli}: ${what}`]);
          times.push(`${what} ${run.durationMs} ms`);
          expect(run.code, `${who}\n${describeRun(run)}`).toBe(2);
          const result = turnResult(run);
          expect(result.error).toContain(value);
          // The host ends once the turn is over.
          await expectNothingLeft(lab, cli, `a refused first turn (${what})`);
          expect(
            hostRecords(),
            `${who}: a session host was left for a turn that made no conversation`,
          ).toEqual([]);
          return result.notes.some((note) => note.includes("offered before, without starting it"));
        };
        expect(
          await refused("unknown model, server asked", ["-m", "no-such-model-xyz"], "no-such-model-xyz"),
        ).toBe(false);
        expect(
          await refused("another, from what it offered", ["-m", "other-model-xyz"], "other-model-xyz"),
        ).toBe(true);
        // A model set in scv's config for the agent, which the server does not offer either.
        writeConfig({ model: "no-such-config-model" });
        try {
          expect(await refused("the config's model", [], "no-such-config-model")).toBe(true);
        } finally {
          writeConfig({});
        }
        // Asked for again, the server itself is asked.
        expect(
          await refused("the same again, server asked", ["-m", "other-model-xyz"], "other-model-xyz"),
        ).toBe(false);
        console.log(`${who}: refused first turns: ${times.join("; ")}`);
      },
    );
  },
);
