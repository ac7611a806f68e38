// Session ids scv mints (src/random.ts): version 4 UUIDs from the kernel's random source, in the
// shape the CLIs' --session-id options accept.

import { describe, expect, it } from "vitest";
import { randomUUID } from "../../src/random.js";

describe("randomUUID", () => {
  it("gives distinct RFC 9562 version 4 UUIDs", () => {
    const ids = Array.from({ length: 2000 }, () => randomUUID());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Every other hex digit takes all 16 values: the bytes are random, not a counter.
    const digits = new Set(ids.map((id) => id[0]));
    expect(digits.size).toBe(16);
  });
});
