// Stands in for node:assert in the bundle (scripts/build.mjs): its one user is signal-exit 3, which
// proper-lockfile loads, and which checks one argument with assert.equal; loading Node's assert
// module (with its error and call-tracker classes) cost every turn ~7 ms of start-up CPU.
function ok(value, message) {
  if (!value) throw new Error(message ?? "assertion failed");
}
function equal(actual, expected, message) {
  // biome-ignore lint/suspicious/noDoubleEquals: assert.equal is loose equality.
  if (actual != expected) throw new Error(message ?? `${String(actual)} == ${String(expected)}`);
}
module.exports = Object.assign(ok, { ok, equal });
