// Each pinned real CLI, configured by configureForMock, completes one turn against its loopback mock.
// This checks the suite's own infrastructure (configs, mocks, isolated env), not scv; it is skipped when
// the CLIs are not installed (node scripts/install-real-clis.mjs). The contract suite (contract.test.ts)
// drives the same recipes through scv, so in `npm run test:real` this runs only with SCV_REAL_RECIPES=1
// (about 45 s on two cores): the first thing to run when a contract test fails, to tell the CLI and its
// recipe apart from scv.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configureForMock, headlessTurn, MOCK_SHAPE, REAL_CLIS } from "./clis.js";
import { baseEnv, realBinDir, runCli, tempHome } from "./env.js";
import { startMock } from "./mock/server.mjs";

const BIN = realBinDir();
const PROMPT = "say hi to the mock";

describe.skipIf(!BIN || !process.env.SCV_REAL_RECIPES)("real CLIs against their mocks", () => {
  it.each(REAL_CLIS.filter((cli) => BIN && existsSync(join(BIN, cli))))(
    "%s finishes a turn",
    { timeout: 180_000 },
    async (cli) => {
      await using home = await tempHome(`scv-real-${cli}-`);
      await using mock = await startMock({ shape: MOCK_SHAPE[cli] });
      const config = await configureForMock(cli, { home: home.home, mockUrl: mock.url });
      const run = await runCli(headlessTurn(cli, config.model, PROMPT), {
        cwd: home.cwd,
        env: baseEnv(home.home, BIN ?? "", config.env),
        timeoutMs: 150_000,
      });
      const context = `exit ${run.code}\nstdout:\n${run.stdout.slice(-2000)}\nstderr:\n${run.stderr.slice(-2000)}`;
      expect(run.code, context).toBe(0);
      expect(mock.sawText(PROMPT), context).toBe(true);
      expect(mock.generations, context).toBeGreaterThan(0);
      // gemini streams the reply as deltas ("MOCK-", "REPLY-", "1"); the others print it whole somewhere.
      expect(run.stdout, context).toContain(
        cli === "gemini" ? '"content":"MOCK-"' : `MOCK-REPLY-${mock.generations}`,
      );
    },
  );
});
