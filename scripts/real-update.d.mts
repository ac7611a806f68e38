// Types for real-update.mjs's pure parts (plain JavaScript so that the install script runs without a
// build), for their unit test.

export interface Pin {
  cli: string;
  pkg: string;
  version: string;
  agent?: string;
  drives?: string;
  [field: string]: unknown;
}
export interface Pins<P extends Pin = Pin> {
  clis: P[];
  adapters: P[];
}
export interface NpmView {
  versions?: string[];
  time?: Record<string, string>;
  "dist-tags"?: { latest?: string };
}
export interface Move {
  pkg: string;
  from: string;
  to: string | undefined;
  tried: { version: string; error: string }[];
}
export interface FlagChange {
  cli: string;
  added: string[];
  removed: string[];
}
export interface SuiteOutcome {
  ran: boolean;
  passed?: number;
  failed?: number;
  skipped?: number;
  failures: { file: string; test: string; message: string }[];
}

export function newerVersions(view: NpmView, current: string): string[];
export function helpFlags(text: string): Set<string>;
export function flagChanges(before: string, after: string): { added: string[]; removed: string[] };
export function selectPins<P extends Pin>(pins: Pins<P>, agents: string[] | undefined): Pins<P>;
export function suiteSelection(files: Record<string, string>, agents: string[] | undefined): string[];
export function reportText(report: {
  moves: Move[];
  flags: FlagChange[];
  suite: SuiteOutcome;
  agents?: string[] | undefined;
  at?: string;
}): string;
export function updatePins(options: {
  report?: string;
  suite?: boolean;
  agents?: string[];
  keepPins?: boolean;
  log: (line: string) => void;
}): number;
export function mergePins<P extends { cli: string }>(pinned: P[], moved: P[]): P[];
