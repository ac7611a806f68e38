// A per-turn CLI's MCP servers on disk: rendered (mcp-servers.ts) into a private folder of the turn —
// inside its own TMPDIR, which the turn's end and, after a dead scv, the reaper remove — and that
// folder removed when the turn ends, however it ends. The turn's endpoint (endpoint.ts) puts the
// files it needs there too.

import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { nanoid } from "nanoid/non-secure";
import { fileHint, ScvError } from "../errors.js";
import { ensurePrivateDir } from "../home/agent-home.js";
import { isTurnTemp } from "../home/turn-temp.js";
import { type RenderedMcp, renderMcp, writeMcpFiles } from "./mcp-servers.js";
import type { TurnPlan } from "./turn-types.js";

export interface PreparedMcp {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The folder of its files; undefined when it has none. */
  readonly dir: string | undefined;
}

/** Renders and writes the turn's MCP servers, and what `also` renders into the same folder (the
 * endpoint's arguments go first); `turnTemp` is the turn's own TMPDIR, if it has one. */
export function prepareMcp(
  plan: TurnPlan,
  turnTemp: string | undefined,
  also?: (dir: string) => RenderedMcp,
): PreparedMcp {
  const inTemp = turnTemp !== undefined && isTurnTemp(turnTemp, plan.handle);
  const dir = inTemp ? join(turnTemp, "scv-mcp") : join(plan.home, ".scv", `mcp-${nanoid(10)}`);
  const rendered = joined(also?.(dir), renderMcp(plan.entry.mcpPassing, plan.mcpServers ?? [], dir));
  if (rendered.files.length === 0) return { args: rendered.args, env: rendered.env, dir: undefined };
  try {
    if (!inTemp) ensurePrivateDir(join(plan.home, ".scv"), plan.home);
    mkdirSync(dir, { mode: 0o700 });
    writeMcpFiles(rendered);
  } catch (error) {
    removeMcpDir(dir);
    if (error instanceof ScvError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ScvError(
      "IO",
      `cannot write the turn's MCP server files in ${dir}: ${(error as Error).message} — ${fileHint(code)}`,
      { cause: error },
    );
  }
  return { args: rendered.args, env: rendered.env, dir };
}

function joined(first: RenderedMcp | undefined, second: RenderedMcp): RenderedMcp {
  if (first === undefined) return second;
  return {
    args: [...first.args, ...second.args],
    env: { ...second.env, ...first.env },
    files: [...first.files, ...second.files],
  };
}

/** `args` (the plan's, or the plan's with a reviewer's in place) with `mcpArgs` after the fixed ones
 * (and a continued turn's subcommand, the row's `resume.subcommand`), where every CLI's grammar
 * takes options. */
export function withMcpArgs(
  plan: TurnPlan,
  args: readonly string[],
  mcpArgs: readonly string[],
): readonly string[] {
  if (mcpArgs.length === 0) return args;
  const { entry } = plan;
  const subcommand =
    plan.session?.kind === "continue" && entry.resume.kind === "supported"
      ? (entry.resume.subcommand?.length ?? 0)
      : 0;
  const at = entry.args.length + subcommand;
  return [...args.slice(0, at), ...mcpArgs, ...args.slice(at)];
}

/** Never throws: what cannot be removed stays in a folder only its owner can read. */
export function removeMcpDir(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // 0700, and inside the turn's TMPDIR, which the turn's end removes too.
  }
}
