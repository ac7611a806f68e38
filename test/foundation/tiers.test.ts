// The rule that puts each test file in a tier (test/tiers.ts), and the Node-version subset named in
// it: a file it names that was renamed or moved out of the e2e tier would silently not run on 22-26.

import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ACROSS_NODE_VERSIONS, testTiers, tierOf } from "../tiers.js";

describe("the test tiers", () => {
  it("stress by name, e2e by folder or by driving the built scv, unit otherwise", () => {
    expect(tierOf("test/home/usage-log.stress.test.ts", 'import "../helpers/scv.js";')).toBe("stress");
    expect(tierOf("test/e2e/turns.test.ts", "")).toBe("e2e");
    expect(tierOf("test/mcp/server.test.ts", 'import { SCV } from "../helpers/scv.js";')).toBe("e2e");
    expect(tierOf("test/cli/frame.test.ts", 'const SCV = resolve("dist/scv.js");')).toBe("e2e");
    expect(tierOf("test/login/api-key.test.ts", 'import { scv } from "../helpers/login-world.js";')).toBe(
      "e2e",
    );
    expect(
      tierOf("test/parsers/claude.test.ts", 'import { parse } from "../../src/parsers/claude.js";'),
    ).toBe("unit");
  });

  it("puts every test file outside test/real in exactly one tier", () => {
    const tiers = testTiers();
    const all = [...tiers.unit, ...tiers.e2e, ...tiers.stress];
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain("test/foundation/tiers.test.ts");
    expect(all.filter((file) => file.startsWith("test/real/"))).toEqual([]);
    expect(tiers.stress.length).toBeGreaterThan(0);
  });

  it("names only e2e files that exist in what runs across Node versions", () => {
    const { e2e } = testTiers();
    for (const file of ACROSS_NODE_VERSIONS) {
      expect(existsSync(file), file).toBe(true);
      expect(e2e, file).toContain(file);
    }
  });
});
