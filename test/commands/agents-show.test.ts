// `scv agents show`'s lines about reviews: the row's model family, and how a review runs it.

import { describe, expect, it } from "vitest";
import { ADAPTERS, type AdapterDescriptor } from "../../src/adapters.js";
import { describeAgent } from "../../src/commands/agents-show.js";

function shown(name: string): string[] {
  const entry = (ADAPTERS as readonly AdapterDescriptor[]).find((row) => row.name === name);
  if (entry === undefined) throw new Error(name);
  return describeAgent(entry, {});
}

describe("describeAgent", () => {
  it("says the model family and how a review runs the agent", () => {
    expect(shown("codex")).toContain("family:      gpt");
    expect(shown("codex")).toContain(
      'review:      read-only with -c sandbox_mode="read-only"; findings\' schema given with --output-schema {file}',
    );
    expect(shown("gemini")).toContain(
      "review:      read-only with --approval-mode plan; findings' schema in the prompt",
    );
    expect(shown("amp")).toContain(
      "review:      read-only by the prompt alone; findings' schema in the prompt",
    );
    expect(shown("pi")).toContain("family:      its model's (it runs many makers' models)");
  });
});
