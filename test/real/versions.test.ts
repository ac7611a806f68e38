// The versions the contract suite verifies against: what `scv agents list --json` reports for each pinned
// CLI must be the pin (scripts/install-real-clis.mjs), the adapter table's `verified.version` and what
// docs/agents.md shows. A CLI upgraded in the pins without re-verifying its row fails here, naming both.
//
// How scv finds them: an npm install's version is read from its package.json, so `agents list` and
// `agents status` start no CLI and write nothing into scv's homes (running `--version` in the agent home
// had copilot unpack ~235 MB there). Each CLI is also reached through a plain wrapper script outside
// node_modules (`[agents.<cli>] command`), so scv has to ask it `--version`: that answer must be the
// package.json's version, and the throwaway home it runs in must be gone afterwards.
// The versions seen are recorded in the install folder (contract-versions.json) for the run's report.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, Lab, REPO, sharedCopilotPkg } from "./harness.js";
import { type AdapterPin, BIN, installedAdapters, installedPins, type Pin } from "./kit.js";
import { row } from "./profiles.js";

interface Listing {
  name: string;
  installed: boolean;
  path: string | null;
  version: string | null;
  verified: string;
}

interface StatusRow {
  agent: string;
  version: string | null;
}

describe.skipIf(BIN === undefined)("versions verified against", () => {
  const bin = BIN ?? "";
  const pins: Pin[] = BIN === undefined ? [] : installedPins(bin);
  let lab: Lab;
  let listings: Listing[] = [];
  let statusRows: StatusRow[] = [];
  let asked: Listing[] = [];
  /** What the lab's folders held after each step, for the assertions below. */
  const after: Record<string, { agentHomes: boolean; tmp: string[] }> = {};
  const snapshot = (step: string) => {
    after[step] = {
      agentHomes: existsSync(join(lab.scvHome, "agents")),
      tmp: readdirSync(join(lab.root, "tmp")),
    };
  };
  let sharedPkg: string | undefined;

  beforeAll(async () => {
    lab = new Lab("versions", { bin });
    const list = await lab.scv(["agents", "list", "--json"], { limitMs: 60_000 });
    expect(list.code, describeRun(list)).toBe(0);
    listings = JSON.parse(list.stdout);
    snapshot("list");
    const status = await lab.scv(["agents", "status", "--json"], { limitMs: 60_000 });
    expect(status.code, describeRun(status)).toBe(0);
    statusRows = JSON.parse(status.stdout);
    snapshot("status");

    // Each pinned CLI behind a wrapper scv cannot trace to a package: it has to run `--version`.
    const copilot = pins.find((pin) => pin.cli === "copilot");
    sharedPkg = copilot ? sharedCopilotPkg(bin, copilot.version) : undefined;
    const wrappers = join(lab.root, "wrappers");
    mkdirSync(wrappers);
    const config: string[] = [];
    for (const pin of pins) {
      const wrapper = join(wrappers, pin.cli);
      // Copilot would unpack ~235 MB into the throwaway home: it gets the suite's shared unpacked copy,
      // linked where it looks (the link goes with the throwaway home; its target must stay).
      const link =
        pin.cli === "copilot" && sharedPkg !== undefined
          ? `mkdir -p "$XDG_CACHE_HOME/copilot" && ln -s '${sharedPkg}' "$XDG_CACHE_HOME/copilot/pkg"\n`
          : "";
      writeFileSync(wrapper, `#!/bin/sh\n${link}exec '${join(bin, pin.cli)}' "$@"\n`);
      chmodSync(wrapper, 0o755);
      config.push(`[agents.${pin.agent ?? pin.cli}]`, `command = "${wrapper}"`, "");
    }
    lab.writeConfig(config.join("\n"));
    const started = Date.now();
    const wrapped = await lab.scv(["agents", "list", "--json"], { limitMs: 90_000 });
    const askedMs = Date.now() - started;
    expect(wrapped.code, describeRun(wrapped)).toBe(0);
    asked = JSON.parse(wrapped.stdout);
    // A CLI that did not answer within scv's limit (cline took 15 s on a machine at load 16) is asked
    // again by the next listing, as a user's next `agents list` would; the answers are kept.
    for (
      let again = 0;
      again < 2 && asked.some((listing) => listing.installed && listing.version === null);
      again += 1
    ) {
      const retried = await lab.scv(["agents", "list", "--json"], { limitMs: 90_000 });
      expect(retried.code, describeRun(retried)).toBe(0);
      asked = JSON.parse(retried.stdout);
    }
    snapshot("asked");

    const table = (rows: { name?: string; agent?: string; version: string | null }[]) =>
      Object.fromEntries(
        rows.filter((r) => r.version !== null).map((r) => [r.name ?? r.agent ?? "?", r.version]),
      );
    const seen = table(listings);
    const answered = table(asked);
    console.log(
      `scv agents list (package.json, ${list.durationMs} ms): ${pins.map((pin) => `${pin.cli} ${seen[pin.cli] ?? "?"}`).join(", ")}\n` +
        `scv agents list (--version, ${askedMs} ms): ${pins.map((pin) => `${pin.cli} ${answered[pin.cli] ?? "?"}`).join(", ")}`,
    );
    writeFileSync(
      join(dirname(dirname(bin)), "contract-versions.json"),
      `${JSON.stringify(
        {
          checkedAt: new Date().toISOString(),
          node: process.version,
          seen,
          answered,
          ms: { packageJson: list.durationMs, askVersion: askedMs },
          pins,
        },
        null,
        2,
      )}\n`,
    );
  });

  afterAll(async () => {
    await lab?.[Symbol.asyncDispose]();
  });

  it("`agents list` and `agents status` create no agent home; `--version` runs leave no folder behind", () => {
    expect(after.list?.agentHomes, "scv agents list created $SCV_HOME/agents").toBe(false);
    expect(after.status?.agentHomes, "scv agents status created $SCV_HOME/agents").toBe(false);
    expect(after.asked?.agentHomes, "asking --version created $SCV_HOME/agents").toBe(false);
    // The throwaway homes were made in scv's TMPDIR, and the CLIs' own TMPDIR was inside them.
    for (const step of ["list", "status", "asked"])
      expect(after[step]?.tmp, `TMPDIR after ${step}`).toEqual([]);
    if (sharedPkg !== undefined) expect(readdirSync(sharedPkg).length).toBeGreaterThan(0);
  });

  it.each(pins.map((pin) => [pin.agent ?? pin.cli, pin] as const))("%s", (cli, pin) => {
    const listing = listings.find((candidate) => candidate.name === cli);
    expect(listing?.installed, `${cli}: scv agents list does not find the pinned install`).toBe(true);
    expect(
      listing?.version,
      `${cli}: scv agents list reports version ${listing?.version}, the pin is ${pin.version} (${pin.pkg})`,
    ).toBe(pin.version);
    expect(
      statusRows.find((candidate) => candidate.agent === cli)?.version,
      `${cli}: scv agents status reports another version`,
    ).toBe(pin.version);
    const wrapped = asked.find((candidate) => candidate.name === cli);
    expect(wrapped?.path, `${cli}: the config's wrapper was not used`).toBe(
      join(lab.root, "wrappers", pin.cli),
    );
    expect(
      wrapped?.version,
      `${cli}: \`${pin.cli} --version\` says ${wrapped?.version}, its package.json ${listing?.version}`,
    ).toBe(pin.reports ?? listing?.version);
    const entry = row(cli as never);
    // A row checked offline (its CLI talks only to its vendor) names the version it was checked at.
    const verified = entry.verified.kind === "unverified" ? "unverified" : entry.verified.version;
    expect(
      verified,
      `${cli}: the pinned ${pin.pkg} is ${pin.version} but src/adapters.ts says verified against ${verified} — re-verify the row, then update verified.version (and npm run docs)`,
    ).toBe(pin.version);
    expect(listing?.verified).toBe(pin.version);
    const docs = readFileSync(join(REPO, "docs", "agents.md"), "utf8");
    const line = docs.split("\n").find((text) => text.startsWith(`| \`${cli}\` |`));
    expect(line, `${cli}: no row in docs/agents.md`).toBeDefined();
    expect(
      line?.split("|")[5]?.trim(),
      `${cli}: docs/agents.md does not show ${pin.version} as verified — run npm run docs`,
    ).toBe(entry.verified.kind === "offline" ? `${pin.version} (offline only)` : pin.version);
  });

  // The ACP adapters pinned beside the CLIs (scripts/install-real-clis.mjs ADAPTER_PINS): the row of the
  // CLI each drives must say it was verified against that version (its `acp.package` is the package).
  const adapters: AdapterPin[] = BIN === undefined ? [] : installedAdapters(bin);
  it.each(adapters.map((pin) => [pin.cli, pin] as const))("ACP adapter %s", (_cli, pin) => {
    const acp = row(pin.drives as never).acp;
    expect(acp?.package, `${pin.drives}: its row's ACP adapter is not ${pin.pkg}`).toBe(pin.pkg);
    const verified = acp?.verified.kind === "lab" ? acp.verified.version : "unverified";
    expect(
      verified,
      `${pin.drives}: the pinned ${pin.pkg} is ${pin.version} but src/adapters.ts says its ACP was verified against ${verified} — re-verify, then update acp.verified.version (and npm run docs)`,
    ).toBe(pin.version);
  });
});
