// The one bound on what scv keeps of a process's output: its first bytes (a helper's answer, read
// from the top) or its last (an agent's stderr, whose end says why it stopped). The rest is read and
// dropped, so a process that writes without end costs no memory.

export class OutputBound {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly max: number;
  private readonly keep: "first" | "last";

  constructor(max: number, keep: "first" | "last") {
    this.max = max;
    this.keep = keep;
  }

  push(chunk: Buffer): void {
    if (this.keep === "first") {
      if (this.size < this.max) this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    // Drop whole chunks from the front while the rest still holds `max` bytes.
    for (
      let first = this.chunks[0];
      first !== undefined && this.size - first.length >= this.max;
      first = this.chunks[0]
    ) {
      this.chunks.shift();
      this.size -= first.length;
    }
  }

  text(): string {
    // Most processes write nothing on stderr when all goes well.
    if (this.size === 0) return "";
    const all = Buffer.concat(this.chunks);
    if (this.keep === "first") return all.toString("utf8").slice(0, this.max);
    const kept = all.length > this.max ? all.subarray(all.length - this.max) : all;
    // A cut through a multi-byte character leaves replacement characters at the start.
    return kept.toString("utf8").replace(/^\uFFFD+/, "");
  }
}
