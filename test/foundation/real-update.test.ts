// The pure parts of `npm run real:update` (scripts/real-update.mjs): which newer versions it tries, which
// pins and contract cases `--agents` keeps, what the report says. Installing and the suite itself are
// run by hand (the script's end-to-end run is in the report of issue 40's branch).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  flagChanges,
  mergePins,
  newerVersions,
  reportText,
  selectPins,
  suiteSelection,
} from "../../scripts/real-update.mjs";

const PINS = {
  clis: [
    { cli: "claude", pkg: "@anthropic-ai/claude-code", version: "2.1.332" },
    { cli: "cline", pkg: "cline", version: "3.0.65" },
    { cli: "qodercli", agent: "qoder", pkg: "@qoder-ai/qodercli", version: "1.1.52" },
  ],
  adapters: [
    {
      cli: "claude-agent-acp",
      pkg: "@agentclientprotocol/claude-agent-acp",
      version: "0.101.0",
      drives: "claude",
    },
  ],
};

describe("newerVersions", () => {
  const view = {
    versions: ["3.0.64", "3.0.65", "3.0.66", "3.1.0", "3.2.0-nightly.1", "3.0.67"],
    time: {
      "3.0.64": "2026-11-01T00:00:00Z",
      "3.0.65": "2026-11-10T00:00:00Z",
      "3.0.66": "2026-11-20T00:00:00Z",
      "3.0.67": "2026-11-25T00:00:00Z",
      "3.1.0": "2026-12-01T00:00:00Z",
      "3.2.0-nightly.1": "2026-12-05T00:00:00Z",
    },
    "dist-tags": { latest: "3.1.0" },
  };

  it("lists those published after the pin up to the latest tag, newest first", () => {
    expect(newerVersions(view, "3.0.65")).toEqual(["3.1.0", "3.0.67", "3.0.66"]);
  });

  it("lists none when the pin is the latest", () => {
    expect(newerVersions(view, "3.1.0")).toEqual([]);
  });
});

describe("selectPins", () => {
  it("keeps every pin when no agent is named", () => {
    expect(selectPins(PINS, undefined)).toBe(PINS);
    expect(selectPins(PINS, [])).toBe(PINS);
  });

  it("keeps a row's pin by its row name and the adapters that drive it", () => {
    expect(selectPins(PINS, ["qoder"]).clis.map((pin) => pin.cli)).toEqual(["qodercli"]);
    const claude = selectPins(PINS, ["claude"]);
    expect(claude.clis.map((pin) => pin.cli)).toEqual(["claude"]);
    expect(claude.adapters.map((pin) => pin.cli)).toEqual(["claude-agent-acp"]);
    expect(selectPins(PINS, ["cline"]).adapters).toEqual([]);
  });

  it("refuses an agent no pin has, naming it and the pinned ones", () => {
    expect(() => selectPins(PINS, ["cline", "crush"])).toThrow(/^no pin for crush \(pinned: .*cline.*\)/);
  });
});

describe("suiteSelection", () => {
  const files = {
    "test/real/new-clis.test.ts": 'const MOCKABLE = [{ cli: "cline" }, { cli: "kilo" }];',
    "test/real/contract.test.ts": 'import { PROFILES } from "./profiles.js";',
    "test/real/profiles.ts": 'export const PROFILES = [{ cli: "claude" }, { cli: "codex" }];',
    "test/real/clineish.test.ts": 'const name = "clinex";',
    "test/real/kit.ts": 'const all = ["cline"];',
  };

  it("runs the whole suite when no agent is named", () => {
    expect(suiteSelection(files, undefined)).toEqual([]);
  });

  it("keeps the test files naming an agent, and those taking their CLIs from profiles.ts when it does", () => {
    expect(suiteSelection(files, ["cline"]).slice(0, -2)).toEqual(["test/real/new-clis.test.ts"]);
    expect(suiteSelection(files, ["codex"]).slice(0, -2)).toEqual(["test/real/contract.test.ts"]);
    expect(suiteSelection(files, ["droid"])).toEqual(["-t", expect.any(String)]);
  });

  it("keeps the cases whose names name an agent as a word", () => {
    const [flag, pattern] = suiteSelection(files, ["cline", "claude"]).slice(-2);
    expect(flag).toBe("-t");
    const keeps = new RegExp(pattern ?? "");
    expect(keeps.test("new CLI refused: 'cline' > a 429 from the endpoint")).toBe(true);
    expect(keeps.test("contract: scv → claude > first turn")).toBe(true);
    expect(keeps.test("claude-agent-acp over ACP")).toBe(false);
    expect(keeps.test("new CLI: clinex")).toBe(false);
  });
});

describe("mergePins", () => {
  it("puts the moved pins in place of the pinned ones, the pinned order kept", () => {
    const pinned = [
      { cli: "claude", version: "1" },
      { cli: "cline", version: "3.0.65" },
      { cli: "kilo", version: "7.7.7" },
    ];
    expect(mergePins(pinned, [{ cli: "cline", version: "3.1.0" }])).toEqual([
      { cli: "claude", version: "1" },
      { cli: "cline", version: "3.1.0" },
      { cli: "kilo", version: "7.7.7" },
    ]);
    expect(mergePins([], [{ cli: "droid", version: "1" }])).toEqual([{ cli: "droid", version: "1" }]);
  });
});

describe("flagChanges", () => {
  it("names the flags a help text gained and lost", () => {
    const before = "Usage: cline [options]\n  -m, --model <id>\n  --json\n  --thinking <level>";
    const after = "Usage: cline [options]\n  -m, --model <id>\n  --json\n  --reasoning-effort <level>";
    expect(flagChanges(before, after)).toEqual({ added: ["--reasoning-effort"], removed: ["--thinking"] });
  });
});

describe("reportText", () => {
  it("lists each move, the flags that changed and the failed cases", () => {
    const text = reportText({
      at: "2026-12-07T21:00:00.000Z",
      agents: ["cline"],
      moves: [
        {
          pkg: "cline",
          from: "3.0.65",
          to: "3.1.0",
          tried: [{ version: "3.2.0", error: "npm install failed: E404" }],
        },
        { pkg: "@factory/cli", from: "0.225.1", to: undefined, tried: [] },
      ],
      flags: [
        { cli: "cline", added: ["--reasoning-effort"], removed: ["--thinking"] },
        { cli: "droid", added: [], removed: [] },
      ],
      suite: {
        ran: true,
        passed: 5,
        failed: 1,
        skipped: 2,
        failures: [
          {
            file: "test/real/new-clis.test.ts",
            test: "new CLI: cline > completes a turn",
            message: "cline rejected\n--thinking",
          },
        ],
      },
    });
    expect(text).toContain("Run 2026-12-07T21:00:00.000Z (only cline).");
    expect(text).toContain("| `cline` | 3.0.65 | 3.1.0 | 3.2.0: npm install failed: E404 |");
    expect(text).toContain("| `@factory/cli` | 0.225.1 | 0.225.1 | — |");
    expect(text).toContain("- `cline`: added `--reasoning-effort`; removed `--thinking`");
    expect(text).not.toContain("`droid`:");
    expect(text).toContain("5 passed, 1 failed, 2 skipped.");
    expect(text).toContain(
      "- test/real/new-clis.test.ts: new CLI: cline > completes a turn\n\n  ```\n  cline rejected\n  --thinking\n  ```",
    );
  });

  it("says when no flag changed and the suite did not run", () => {
    const text = reportText({ moves: [], flags: [], suite: { ran: false, failures: [] } });
    expect(text).toContain("No help text gained or lost a flag.");
    expect(text).toContain("## Contract suite\n\nNot run.");
    expect(text).toMatch(/^Run \d{4}-\d\d-\d\dT[\d:.]+Z\.$/m);
  });
});

describe("npm run real:update", () => {
  it("runs the update from the install script: an unknown agent is one line and exit 1, before any npm call", () => {
    // The install script awaited its main at the top level, and `--update` imports real-update.mjs,
    // which imports the install script: Node exited 13 saying nothing.
    const run = spawnSync(
      process.execPath,
      ["scripts/install-real-clis.mjs", "--update", "--agents", "no-such-agent", "--keep-pins", "--no-suite"],
      { encoding: "utf8", timeout: 30_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^install-real-clis: no pin for no-such-agent \(pinned: [^)]*cline[^)]*\)\n$/);
  });
});
