import { defineConfig } from "vitest/config";

// The contract suite: the real agent CLIs from npm against loopback model mocks. One file at a time:
// the CLIs are heavy and CI has two cores.
export default defineConfig({
  test: {
    include: ["test/real/**/*.test.ts", "test/login/real-cli.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
