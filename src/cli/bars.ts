// Horizontal bars for a handful of values on a terminal (`scv usage --chart`): each row's label, a
// bar scaled to the largest value in eighths of a column, then the value as text.

const BLOCK = "█";
/** A column's eighths, none to seven. */
const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
/** The fewest columns a bar gets, however narrow the terminal. */
const MIN_BAR = 10;

/** `value` of `max` as a bar at most `width` columns long; a value above zero shows at least an eighth. */
function bar(value: number, max: number, width: number): string {
  if (!(value > 0) || !(max > 0) || width <= 0) return "";
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return BLOCK.repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] ?? "");
}

export interface BarRow {
  readonly label: string;
  readonly value: number;
  /** The value as shown after the bar (`12.3k`, `$0.42`). */
  readonly text: string;
}

/** One line per row, fit to `columns`: labels and values aligned, bars as long as there is room. */
export function barLines(rows: readonly BarRow[], columns: number): string[] {
  const labelWidth = Math.max(0, ...rows.map((row) => row.label.length));
  const textWidth = Math.max(0, ...rows.map((row) => row.text.length));
  const width = Math.max(MIN_BAR, columns - labelWidth - textWidth - 5);
  const max = Math.max(0, ...rows.map((row) => row.value));
  return rows.map(
    (row) =>
      `${row.label.padEnd(labelWidth)}  ${bar(row.value, max, width).padEnd(width)}  ${row.text.padStart(textWidth)}`,
  );
}
