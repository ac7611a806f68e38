// Best of N: `--n 3` runs each target three times, each attempt its own conversation (and, with
// worktrees, its own worktree and branch); naming a target twice (`a a b`) does the same for that
// target. No `a*3` suffix: unquoted, a shell expands it as a glob. Pure: the
// command line expands its targets with `expandAttempts` before planning them (batch.ts), and the
// comparison labels each attempt with its number.

import { ScvError } from "../errors.js";

/** The most attempts of one target a fan-out runs (`--n`). */
export const MAX_ATTEMPTS = 16;

/** `--n`: a whole number from 1 to MAX_ATTEMPTS; absent, 1. */
export function attemptsOption(text: string | undefined): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS) {
    throw new ScvError(
      "USAGE",
      `--n '${text}' is not a count of attempts — give a whole number from 1 to ${MAX_ATTEMPTS}`,
    );
  }
  return n;
}

export interface Attempt<T> {
  readonly target: T;
  /** Which attempt of its target this is, from 1. */
  readonly attempt: number;
  /** How many attempts its target has in all (`--n` times how often it was named). */
  readonly of: number;
}

/** Each target `n` times, in the order given (a target named twice runs twice as often), numbered
 * per target: `key` says when two targets are the same one (`a:o3` and `a` are not). */
export function expandAttempts<T>(
  targets: readonly T[],
  n: number,
  key: (target: T) => string,
): Attempt<T>[] {
  const totals = new Map<string, number>();
  for (const target of targets) totals.set(key(target), (totals.get(key(target)) ?? 0) + n);
  const seen = new Map<string, number>();
  return targets.flatMap((target) =>
    Array.from({ length: n }, () => {
      const name = key(target);
      const attempt = (seen.get(name) ?? 0) + 1;
      seen.set(name, attempt);
      return { target, attempt, of: totals.get(name) ?? n };
    }),
  );
}

/** How an attempt is named in a table: `<agent>`, or `<agent> #2` when its target has several. Pure. */
export function attemptLabel(name: string, attempt: Pick<Attempt<unknown>, "attempt" | "of">): string {
  return attempt.of > 1 ? `${name} #${attempt.attempt}` : name;
}
