// Run by atomic.test.ts (bundled: test/helpers/child.ts) in a process whose file size limit (ulimit -f) is far below what it writes:
// the kernel takes part of the text, then refuses the rest (EFBIG), as on a disk that fills up
// mid-write (ENOSPC). Prints what the write threw.

import { dirname } from "node:path";
import { writeConversation } from "../../src/home/conversations.js";
import { writePrivate } from "../../src/home/keystores/files.js";

// EFBIG comes with SIGXFSZ, which would end this process; a full disk sends no signal, and the
// write must fail with an error as it does there.
process.on("SIGXFSZ", () => {});

const [kind, path] = process.argv.slice(2);
const big = "x".repeat(4 * 1024 * 1024);

async function write(): Promise<void> {
  if (kind === "record") {
    writeConversation(
      {
        handle: "codex-k3f9x2",
        agent: "codex",
        cwd: "/p",
        policy: "default",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-02T00:00:00.000Z",
        turns: 2,
        usage: {},
        lastPrompt: big,
      },
      // This child is its own entry point: atomic.test.ts gives it the SCV_HOME to write in.
      process.env,
    );
  } else {
    await writePrivate(dirname(path ?? ""), path ?? "", `{"key":"${big}"}\n`);
  }
}

// Bundled as CommonJS (test/helpers/child.ts): no top-level await.
write().then(
  () => console.log(JSON.stringify({ error: null })),
  (error: unknown) => console.log(JSON.stringify({ error: (error as Error).message })),
);
