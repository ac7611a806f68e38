// Replies of 20 MiB on one line (long-reply.test.ts has the rest): read up to the 64 MiB bound and
// printed byte for byte on a pipe, with scv's memory bounded.

import { describe, it } from "vitest";
import { useLab } from "../helpers/lab.js";
import { expectLongReply } from "../helpers/long-reply.js";

const lab = useLab();

describe("a reply longer than the 4 MiB line bound", () => {
  for (const agent of ["claude", "codex"]) {
    it(`${agent}: a 20 MiB reply on one line, byte for byte, memory bounded`, async () => {
      await expectLongReply(lab.world, agent, 20);
    });
  }
});
