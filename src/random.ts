// Random ids without node:crypto: loading it (sixteen internal modules) is a large part of a turn's
// start-up (docs/benchmarks.md), for one UUID. Names that only have to be unusual (conversation handles, turn tags,
// file names; each is created exclusively or checked before use) come from nanoid's Math.random
// variant; a session id an agent keeps comes from the kernel's random source.

import { closeSync, openSync, readSync } from "node:fs";

/** `n` bytes from /dev/urandom; undefined where there is none. */
function kernelRandomBytes(n: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", "r");
    const bytes = Buffer.alloc(n);
    // /dev/urandom fills any read of up to 32 MB whole.
    return readSync(fd, bytes, 0, n, null) === n ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An RFC 9562 version 4 UUID, as crypto.randomUUID() makes (which it falls back to). */
export function randomUUID(): string {
  const bytes = kernelRandomBytes(16);
  if (bytes === undefined) return globalThis.crypto.randomUUID();
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
