// One fresh world per test for tests that start agent processes: whatever a test's outcome, the
// agent pids it saw are SIGKILLed and its world removed afterwards. Every end-to-end file's set-up.

import { afterEach, beforeAll, beforeEach } from "vitest";
import { killAll } from "./pids.js";
import { agentPids, createWorld, ensureBuilt, type World } from "./scv.js";

export interface Lab {
  /** This test's world. */
  readonly world: World;
  /** Pids to SIGKILL after the test. */
  track(pids: readonly number[]): void;
  /** The agents' pids the fake agents recorded (optionally from one call file), tracked. */
  pidsOf(name?: string): Promise<number[]>;
}

/** A fresh world for each test of the file (the built scv ready first), removed after it with what it
 * left running. `take` gets each world as it is made, for a file that keeps it in a variable of its own
 * (`let world: World; useLab((created) => { world = created; });`). */
export function useLab(take?: (world: World) => void): Lab {
  let current: World | undefined;
  const leftovers: number[] = [];
  beforeAll(ensureBuilt, 120_000);
  beforeEach(() => {
    current = createWorld();
    take?.(current);
  });
  afterEach(() => {
    killAll(leftovers.splice(0));
    current?.dispose();
  });
  const lab: Lab = {
    get world(): World {
      if (current === undefined) throw new Error("useLab: no world outside a test");
      return current;
    },
    track(pids) {
      leftovers.push(...pids);
    },
    async pidsOf(name) {
      const pids = await agentPids(lab.world, name);
      leftovers.push(...pids);
      return pids;
    },
  };
  return lab;
}
