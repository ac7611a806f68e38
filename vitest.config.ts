import { defineConfig } from "vitest/config";
import { REAL_TIME, SCALED_TIME } from "./test/helpers/timing.js";
import { ACROSS_NODE_VERSIONS, testTiers } from "./test/tiers.js";

// Three tiers (test/tiers.ts says which file is in which): `npm test` runs unit and e2e together, CI
// adds stress. Most end-to-end tests wait on processes rather than compute, so more of them run at
// once than there are cores; SCV_TEST_WORKERS overrides the count. SCV_TEST_E2E=versions narrows the
// e2e tier to what differs between Node versions (CI's runs on Node 22, 24, 26).
const tiers = testTiers();
const e2e = process.env.SCV_TEST_E2E === "versions" ? [...ACROSS_NODE_VERSIONS] : tiers.e2e;
const workers = Number(process.env.SCV_TEST_WORKERS) || 6;

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: workers,
    // scv's graces a tenth as long in-process too (test/helpers/timing.ts; worlds carry it to the
    // built scv and the fake agents).
    env: { ...SCALED_TIME },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: tiers.unit, pool: "threads", isolate: false },
      },
      {
        extends: true,
        // One module graph per worker, not per file: each file's set-up is its own world. Several
        // at once on two cores: a case that starts many processes in a row gets the time to.
        test: {
          name: "e2e",
          include: e2e,
          pool: "forks",
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // After the others, alone: its cases load the machine or time real durations.
        test: {
          name: "stress",
          include: tiers.stress,
          pool: "forks",
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          // Its worlds too: a case here may prove a real duration.
          env: { ...REAL_TIME },
          testTimeout: 120_000,
        },
      },
    ],
  },
});
