// Recaptures test/fixtures/<cli>/retry-recovered (the first request gets a 429, the next succeeds)
// and retry-exhausted (every request a 429), each CLI's retries set to 2, for reading where each
// puts its retries relative to its terminal event (docs/agents.md). Only with
// SCV_REAL_CAPTURE_DIR=<folder> (about 3 minutes): it writes <cli>-<case>.{stdout,stderr,json} there,
// whose paths are then replaced by /home/user before they are copied into test/fixtures.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { configureForMock, headlessTurn, MOCK_SHAPE, REAL_CLIS } from "./clis.js";
import { baseEnv, realBinDir, runCli, tempHome } from "./env.js";
import { startMock } from "./mock/server.mjs";

const BIN = realBinDir();
const PROMPT = "say hi to the mock";
const OUT = process.env.SCV_REAL_CAPTURE_DIR;

describe.skipIf(!BIN || !OUT)("retry captures", () => {
  for (const cli of REAL_CLIS)
    for (const [name, modes] of [
      ["recovered", ["429", "ok"]],
      ["exhausted", ["429"]],
    ] as const)
      it(`${cli} ${name}`, { timeout: 180_000 }, async () => {
        await using home = await tempHome(`scv-cap-${cli}-`);
        await using mock = await startMock({ shape: MOCK_SHAPE[cli], mode: [...modes] });
        const config = await configureForMock(cli, { home: home.home, mockUrl: mock.url, retries: 2 });
        const started = Date.now();
        const run = await runCli(headlessTurn(cli, config.model, PROMPT), {
          cwd: home.cwd,
          env: baseEnv(home.home, BIN ?? "", config.env),
          timeoutMs: 90_000,
        });
        const base = join(OUT ?? "", `${cli}-${name}`);
        writeFileSync(`${base}.stdout`, run.stdout);
        writeFileSync(`${base}.stderr`, run.stderr);
        writeFileSync(
          `${base}.json`,
          JSON.stringify(
            {
              cli,
              case: name,
              modes,
              exit_code: run.code,
              duration_ms: Date.now() - started,
              generations: mock.generations,
            },
            null,
            2,
          ),
        );
      });
});
