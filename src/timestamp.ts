// ISO 8601 timestamps in UTC for scv's records, without Date#toISOString: V8 loads the time zone
// database the first time any Date method runs that way (it reads /etc/localtime and resolves its
// links), and a record's timestamp is UTC anyway.

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** `date` as `toISOString` writes it (`2026-12-02T18:45:11.042Z`), for years 0 to 9999. */
export function isoTimestamp(date: Date = new Date()): string {
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999 || Number.isNaN(year)) return date.toISOString();
  return `${String(year).padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(
    date.getUTCHours(),
  )}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`;
}
