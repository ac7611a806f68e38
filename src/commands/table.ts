// Plain aligned columns for listings on stdout, and sizes as they show there. Cells may hold what an agent wrote (a prompt, a
// tool summary, a model name): their control characters are shown, never acted on.

import { visibleLine } from "../cli/terminal-text.js";

export function renderTable(headers: readonly string[], cellRows: readonly (readonly string[])[]): string {
  const rows = cellRows.map((row) => row.map(visibleLine));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join("\n")}\n`;
}

/** `512 B`, `12.3 KB`, `4.0 MB` (powers of 1024, as du -h). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `12.2k`, `3.4M`: a table column, not an invoice (`--json` has the exact counts). */
export function compactCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}
