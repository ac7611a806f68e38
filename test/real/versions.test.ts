// The versions the contract suite verifies against: what `scv agents list --json` reports for each pinned
// CLI must be the pin (scripts/install-real-clis.mjs), the adapter table's `verified.version` and what
// docs/agents.md shows. A CLI upgraded in the pins without re-verifying its row fails here, naming both.
// The versions seen are recorded in the install folder (contract-versions.json) for the run's report.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, Lab, linkCopilotCache, REPO, sharedCopilotPkg } from "./harness.js";
import { BIN, installedPins, type Pin } from "./kit.js";
import { row } from "./profiles.js";

interface Listing {
  name: string;
  installed: boolean;
  version: string | null;
  verified: string;
}

describe.skipIf(BIN === undefined)("versions verified against", () => {
  const bin = BIN ?? "";
  const pins: Pin[] = BIN === undefined ? [] : installedPins(bin);
  let lab: Lab;
  let listings: Listing[] = [];

  beforeAll(async () => {
    lab = new Lab("versions", { bin });
    // `agents list` runs every CLI's --version in its agent home: copilot would unpack itself there.
    const copilot = pins.find((pin) => pin.cli === "copilot");
    if (copilot) linkCopilotCache(lab.agentHome("copilot"), sharedCopilotPkg(bin, copilot.version));
    const run = await lab.scv(["agents", "list", "--json"], { limitMs: 60_000 });
    expect(run.code, describeRun(run)).toBe(0);
    listings = JSON.parse(run.stdout);
    const seen = Object.fromEntries(listings.filter((l) => l.installed).map((l) => [l.name, l.version]));
    console.log(`scv agents list: ${pins.map((pin) => `${pin.cli} ${seen[pin.cli] ?? "?"}`).join(", ")}`);
    writeFileSync(
      join(dirname(dirname(bin)), "contract-versions.json"),
      `${JSON.stringify({ checkedAt: new Date().toISOString(), node: process.version, seen, pins }, null, 2)}\n`,
    );
  });

  afterAll(async () => {
    await lab?.[Symbol.asyncDispose]();
  });

  it.each(pins.map((pin) => [pin.cli, pin] as const))("%s", (cli, pin) => {
    const listing = listings.find((candidate) => candidate.name === cli);
    expect(listing?.installed, `${cli}: scv agents list does not find the pinned install`).toBe(true);
    expect(
      listing?.version,
      `${cli}: scv agents list reports version ${listing?.version}, the pin is ${pin.version} (${pin.pkg})`,
    ).toBe(pin.version);
    const entry = row(cli as never);
    const verified = entry.verified.kind === "lab" ? entry.verified.version : "unverified";
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
    ).toBe(pin.version);
  });
});
