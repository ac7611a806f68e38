// Whether the Node.js an agent's CLI runs on is as new as its row's `nodeFloor`: the `node` on PATH,
// which its `#!/usr/bin/env node` finds and with which npm picks the release it installs.

import type { AdapterDescriptor } from "../adapters.js";
import { runBounded } from "../process/helpers.js";
import { resolveAgentExecutable } from "./lookup.js";

/** A `node --version` answers at once; a machine under load gets some slack. */
const VERSION_LIMIT_MS = 10_000;

/** What falls short, in words (`<agent> needs Node.js 22.19.0 or newer, and the node on PATH (…)
 * is v20.20.2`), or undefined when nothing does or the version cannot be told. */
export async function nodeShortfall(
  entry: AdapterDescriptor,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const floor = entry.nodeFloor;
  if (floor === undefined) return undefined;
  const needs = `${entry.name} needs Node.js ${floor} or newer`;
  const node = resolveAgentExecutable("node", [], env.PATH ?? "");
  if (node === undefined) return `${needs}, and there is no node on PATH`;
  const result = await runBounded(node, ["--version"], { env, timeoutMs: VERSION_LIMIT_MS });
  const version = /v?(\d+\.\d+\.\d+)/.exec(result.stdout)?.[1];
  // A node that does not say is left to fail on its own terms.
  if (version === undefined || !olderThan(version, floor)) return undefined;
  return `${needs}, and the node on PATH (${node}) is v${version}`;
}

/** Whether dotted version `a` is older than `b`. */
function olderThan(a: string, b: string): boolean {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}
