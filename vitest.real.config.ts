import { defineConfig } from "vitest/config";

// The contract suite: the real agent CLIs from npm against loopback model mocks. Two files at a time
// (SCV_REAL_WORKERS overrides): a file's labs, mocks, tmux servers and processes are its own. One file
// at a time the suite keeps less than one core busy — part of its time waits on a mock holding its
// reply, retries' backoff, the next minute, a timeout it must reach — so the second core is idle
// (test/real/README.md has the figures). Files start largest first (vitest's order without a cache),
// so the long ones do not come last.
export default defineConfig({
  // Its own results cache (the durations that order the next run's files): CI runs it beside `npm test`,
  // whose vitest would otherwise read and write the same file.
  cacheDir: "node_modules/.vite/real",
  test: {
    include: ["test/real/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: "forks",
    maxWorkers: Number(process.env.SCV_REAL_WORKERS) || 2,
  },
});
