// The review as SARIF 2.1.0 (`--format sarif`), the format GitHub code scanning and editors read:
// one run of the tool "scv review", one rule per severity (blocker an error, major a warning, minor
// and nit notes), one result per merged finding at its file and lines (relative to the checkout,
// `%SRCROOT%`), with who raised it, its severity and its place against the diff as properties and a
// fingerprint of its file and title so an alert survives lines moving. The reviewers' failures and
// the files left out are the invocation's notifications; it succeeded when no reviewer failed.
// test/review/sarif.test.ts validates the output against the official 2.1.0 JSON schema.
//
// API: `renderSarif(report, { version? })` → the SARIF log as a JSON value. Pure.

import { createHash } from "node:crypto";
import { titleWords } from "./merge.js";
import type { ReviewReport } from "./report.js";
import { SEVERITIES, SEVERITY_MEANING, type Severity } from "./schema.js";

const LEVEL: Readonly<Record<Severity, "error" | "warning" | "note">> = {
  blocker: "error",
  major: "warning",
  minor: "note",
  nit: "note",
};

const SCHEMA_URI =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

type Finding = ReviewReport["findings"][number];

function ruleId(severity: Severity): string {
  return `scv-review/${severity}`;
}

/** A repository path as a relative URI reference: each segment percent-encoded. */
function pathUri(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

function message(finding: Finding): string {
  return [
    finding.title,
    ...(finding.body === "" ? [] : ["", finding.body]),
    ...(finding.suggestion === undefined ? [] : ["", "Suggestion:", finding.suggestion]),
    "",
    `Raised by ${finding.raisedBy.join(", ")}.`,
  ].join("\n");
}

/** The same finding on the next run, whatever its lines: its file and its title's words. */
function fingerprint(finding: Finding): string {
  return createHash("sha256")
    .update(`${finding.file}\0${titleWords(finding.title).sort().join(" ")}`)
    .digest("hex")
    .slice(0, 32);
}

function result(finding: Finding): Record<string, unknown> {
  const region =
    finding.line === undefined
      ? {}
      : { region: { startLine: finding.line, endLine: finding.endLine ?? finding.line } };
  return {
    ruleId: ruleId(finding.severity),
    ruleIndex: SEVERITIES.indexOf(finding.severity),
    level: LEVEL[finding.severity],
    message: { text: message(finding) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pathUri(finding.file), uriBaseId: "%SRCROOT%" },
          ...region,
        },
      },
    ],
    partialFingerprints: { "scvReviewFinding/v1": fingerprint(finding) },
    properties: {
      severity: finding.severity,
      raisedBy: [...finding.raisedBy],
      scope: finding.scope,
    },
  };
}

function notifications(report: ReviewReport): Record<string, unknown>[] {
  return [
    ...report.reviewers.flatMap((reviewer) =>
      reviewer.failures.map((failure) => ({
        level: "error",
        message: {
          text: `${reviewer.reviewer}, part ${failure.part} (exit ${failure.exitCode}): ${failure.error}${failure.hint === null ? "" : ` — ${failure.hint}`}`,
        },
      })),
    ),
    ...report.skipped.map((file) => ({
      level: "note",
      message: { text: `${file.path} was left out of the review: ${file.detail}` },
      locations: [
        { physicalLocation: { artifactLocation: { uri: pathUri(file.path), uriBaseId: "%SRCROOT%" } } },
      ],
    })),
  ];
}

/** The SARIF log of `report`. Pure. */
export function renderSarif(
  report: ReviewReport,
  options: { readonly version?: string } = {},
): Record<string, unknown> {
  const driver = {
    name: "scv review",
    ...(options.version === undefined ? {} : { version: options.version }),
    rules: SEVERITIES.map((severity) => ({
      id: ruleId(severity),
      name: `Review${severity[0]?.toUpperCase()}${severity.slice(1)}`,
      shortDescription: { text: `A ${severity} finding of a code review` },
      fullDescription: { text: `${severity}: ${SEVERITY_MEANING[severity]}` },
      defaultConfiguration: { level: LEVEL[severity] },
    })),
  };
  const failed = report.reviewers.some((reviewer) => reviewer.failures.length > 0);
  return {
    $schema: SCHEMA_URI,
    version: "2.1.0",
    runs: [
      {
        tool: { driver },
        invocations: [
          {
            executionSuccessful: !failed,
            exitCode: report.exitCode,
            toolExecutionNotifications: notifications(report),
          },
        ],
        results: report.findings.map(result),
        properties: { verdict: report.verdict, description: report.description },
      },
    ],
  };
}
