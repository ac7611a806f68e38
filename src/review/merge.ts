// Agreement across reviewers: findings of different reviewers on the same file, on overlapping lines
// (within `LINE_SLACK`; both about the file as a whole counts too), whose titles say the same thing
// in other words, become one finding that lists who raised it. Its severity is the highest raised;
// its title, lines and text are those of the reviewer who rated it highest (the first of them).
// Every reviewer's own report stays in `reports`. One reviewer's findings never merge with each
// other: two findings of one reviewer are two problems.
//
// Titles are compared by their words: lower-cased, stop words dropped, plural and verb endings cut,
// and a word matching another that begins with it (`deref`, `dereference`); similarity is the Dice
// coefficient of the two sets, `TITLE_SIMILARITY` or more is the same problem.
//
// API: `titleWords(title)`, `titleSimilarity(a, b)`, `mergeFindings(findings)` → `MergedFinding[]`,
// most severe first. Pure.

import type { PlacedFinding } from "./locate.js";
import { severityRank } from "./schema.js";

/** Lines apart that still count as the same place. */
const LINE_SLACK = 2;
/** Titles at least this similar (0..1) name the same problem. */
const TITLE_SIMILARITY = 0.5;

/** One reviewer's finding. */
export interface ReviewerFinding extends PlacedFinding {
  /** The reviewer's target (`<agent>`, `<agent>:<model>`). */
  readonly reviewer: string;
}

export interface MergedFinding extends PlacedFinding {
  /** Who raised it, in the order of `reports`. */
  readonly raisedBy: readonly string[];
  /** Each reviewer's own finding, most severe first. */
  readonly reports: readonly ReviewerFinding[];
}

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the of in on at to for from by with without into onto and or but not no is are was were be " +
    "been being can could may might should would will it its this that these those when if then than " +
    "as so there here which who whose what where why how possible potential potentially"
  ).split(" "),
);

/** A word without its plural or verb ending: `checks`, `checked`, `checking` → `check`. */
function stem(word: string): string {
  for (const suffix of ["ing", "ed", "s"]) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

/** The words of a title that carry its meaning. Pure. */
export function titleWords(title: string): string[] {
  const words = title
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter((word) => word !== "" && !STOP_WORDS.has(word))
    .map(stem);
  return [...new Set(words)];
}

/** Two words for the same thing: equal, or one the other's beginning (four letters or more). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 4 && longer.startsWith(shorter);
}

/** How alike two titles are, 0 to 1: the Dice coefficient of their words. Pure. */
export function titleSimilarity(a: string, b: string): number {
  const left = titleWords(a);
  const right = titleWords(b);
  if (left.length === 0 || right.length === 0)
    return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  const unmatched = [...right];
  let shared = 0;
  for (const word of left) {
    const at = unmatched.findIndex((other) => sameWord(word, other));
    if (at === -1) continue;
    shared += 1;
    unmatched.splice(at, 1);
  }
  return (2 * shared) / (left.length + right.length);
}

function samePlace(a: PlacedFinding, b: PlacedFinding): boolean {
  if (a.file !== b.file) return false;
  if (a.line === undefined || b.line === undefined) return a.line === b.line;
  const aEnd = a.endLine ?? a.line;
  const bEnd = b.endLine ?? b.line;
  return a.line <= bEnd + LINE_SLACK && b.line <= aEnd + LINE_SLACK;
}

function bySeverity(a: PlacedFinding, b: PlacedFinding): number {
  return severityRank(a.severity) - severityRank(b.severity);
}

function merged(reports: readonly ReviewerFinding[]): MergedFinding {
  const sorted = [...reports].sort(bySeverity);
  const lead = sorted[0] as ReviewerFinding;
  const { reviewer: _reviewer, ...finding } = lead;
  const raisedBy = [...new Set(sorted.map((report) => report.reviewer))];
  return { ...finding, raisedBy, reports: sorted };
}

/** The findings of every reviewer, those that agree made one; most severe first, then by file and
 * line. Pure. */
export function mergeFindings(findings: readonly ReviewerFinding[]): MergedFinding[] {
  const groups: ReviewerFinding[][] = [];
  for (const finding of findings) {
    const group = groups.find(
      (members) =>
        !members.some((member) => member.reviewer === finding.reviewer) &&
        members.some(
          (member) =>
            samePlace(member, finding) && titleSimilarity(member.title, finding.title) >= TITLE_SIMILARITY,
        ),
    );
    if (group === undefined) groups.push([finding]);
    else group.push(finding);
  }
  return groups
    .map(merged)
    .sort((a, b) => bySeverity(a, b) || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}
