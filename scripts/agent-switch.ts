// The rule `npm run check` holds src/ to: nothing outside the table switches on an agent's name. A
// string equal to an agent's name or command (a row's `name` or `command`) is refused where code
// decides by it: a comparison (`entry.name === "codex"`), a `case "codex":`, an object's or
// interface's key (`{ codex: … }`, `{ "claude-ai": … }`), `"codex" in x`, and a list of names
// asked `.includes(…)`/`.has(…)`/`.indexOf(…)` or made a Set. A row's facts belong in its row
// (src/table/<agent>.ts), read through a field; src/adapters.ts (the table's index) and src/table/
// are the only places such a string may decide anything. Parsed, not type-checked: it takes ~1 s.
//
// `tsx scripts/agent-switch.ts [folder]` prints `file:line:column: name — the line` for each and
// exits 1 when there is any; test/foundation/agent-switch.test.ts plants each form and sees it fail.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { ADAPTERS, type AdapterDescriptor } from "../src/adapters.js";

/** Where an agent's name may decide: the table's index and its rows. */
const THE_TABLE = [/^adapters\.ts$/, /^table\//];

/** Keys that are an agent's name by coincidence, each with why: not a switch on the agent. */
export const ALLOWED_KEYS: readonly { file: string; key: string; why: string }[] = [
  { file: "mcp/task-methods.ts", key: "cursor", why: "the MCP protocol's pagination cursor" },
  {
    file: "acp/events/acp-wire.ts",
    key: "codex",
    why: "a member of the ACP wire (`_meta.codex`, which the Codex adapter writes), read from whichever agent sends it",
  },
];

/** Every shipped row's name and command. */
export function agentNames(rows: readonly AdapterDescriptor[] = ADAPTERS): Set<string> {
  return new Set(rows.flatMap((entry) => [entry.name, entry.command]));
}

export interface AgentSwitch {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly name: string;
  readonly text: string;
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.InKeyword,
]);

const LOOKUPS = new Set(["includes", "has", "indexOf"]);

/** The string a node spells, when it is a literal: `"codex"`, `` `codex` ``. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

/** A key's text: `codex`, `"claude-ai"`, `["codex"]`. */
function keyText(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return literalText(name.expression);
  return literalText(name);
}

/** Whether an array literal is asked about a member (`[…].includes(x)`) or made a Set. */
function isLookedUp(array: ts.ArrayLiteralExpression): boolean {
  let node: ts.Node = array;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node)
    return LOOKUPS.has(parent.name.text);
  if (ts.isNewExpression(parent))
    return ts.isIdentifier(parent.expression) && parent.expression.text === "Set";
  return false;
}

/** The names of agents a literal or key decides by, in one source text. */
export function switchesIn(file: string, text: string, names: ReadonlySet<string>): AgentSwitch[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits: AgentSwitch[] = [];
  const hit = (node: ts.Node, name: string): void => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const lineText = text.split("\n")[line]?.trim() ?? "";
    hits.push({ file, line: line + 1, column: character + 1, name, text: lineText });
  };
  const visit = (node: ts.Node): void => {
    const literal = literalText(node);
    if (literal !== undefined && names.has(literal)) {
      const parent = node.parent;
      if (
        (ts.isBinaryExpression(parent) && COMPARISONS.has(parent.operatorToken.kind)) ||
        (ts.isCaseClause(parent) && parent.expression === node) ||
        (ts.isArrayLiteralExpression(parent) && isLookedUp(parent))
      ) {
        hit(node, literal);
      }
    }
    if (
      ts.isPropertyAssignment(node) ||
      ts.isPropertySignature(node) ||
      ts.isShorthandPropertyAssignment(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const key = keyText(node.name);
      if (
        key !== undefined &&
        names.has(key) &&
        !ALLOWED_KEYS.some((a) => a.file === file && a.key === key)
      ) {
        hit(node.name, key);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every switch on an agent's name in the `.ts` files below `src`, outside the table. */
export function agentSwitches(src: string, names: ReadonlySet<string> = agentNames()): AgentSwitch[] {
  return sourceFiles(src).flatMap((path) => {
    const file = relative(src, path).split("\\").join("/");
    if (THE_TABLE.some((rule) => rule.test(file))) return [];
    return switchesIn(file, readFileSync(path, "utf8"), names);
  });
}

if (import.meta.filename === process.argv[1]) {
  const src = process.argv[2] ?? join(import.meta.dirname, "..", "src");
  const hits = agentSwitches(src);
  for (const hit of hits) {
    process.stderr.write(`src/${hit.file}:${hit.line}:${hit.column}: ${hit.name} — ${hit.text}\n`);
  }
  if (hits.length > 0) {
    process.stderr.write(
      `${hits.length} switch(es) on an agent's name outside src/adapters.ts and src/table/: make it a field of the row and read that\n`,
    );
    process.exit(1);
  }
}
