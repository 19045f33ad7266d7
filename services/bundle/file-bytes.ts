// A VFP dump read on demand from its file: the index keeps offsets, and a port's, a rule's or a line's
// bytes are read again with a pread of their range (parsers/vfp/byte-source.ts). The file is opened on
// the first read and closed when the source is collected or closed. A file that grows meanwhile (a live
// dump) is read as it was listed; one that shrank or went away says so, naming the file.
import { closeSync, openSync, readSync } from 'node:fs';
import { reviveVfpIndex } from '../../parsers/vfp/scan.ts';
import type { VfpIndex } from '../../parsers/vfp/index-types.ts';
import { clampEnd, clampStart, MemoryBytes, OffsetBytes, type ByteSource } from '../../parsers/vfp/byte-source.ts';

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

export class FileBytes implements ByteSource {
  /** Tells a clone that crossed threads (structured cloning keeps only these fields) from other sources. */
  readonly kind = 'file' as const;
  #fd: number | undefined;
  constructor(
    /** The file on disk (a bundle's file, or the temporary file a zip entry was inflated to). */
    readonly path: string,
    readonly size: number,
    /** The file's name in the bundle, for messages. */
    readonly name: string = path,
  ) {}

  read(offset: number, length: number, into?: Uint8Array): Uint8Array {
    const s = clampStart(offset, this.size);
    const len = clampEnd(s, length, this.size) - s;
    const out = into && into.length >= len ? into.subarray(0, len) : new Uint8Array(len);
    if (len === 0) return out;
    let fd = this.#fd;
    try {
      if (fd === undefined) {
        fd = this.#fd = openSync(this.path, 'r');
        closer.register(this, fd, this);
      }
      let off = 0;
      while (off < len) {
        const n = readSync(fd, out, off, len - off, s + off);
        if (n === 0) break;
        off += n;
      }
      if (off < len) throw new Error(`it ends at byte ${s + off}, before the ${this.size} bytes it had when it was read`);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
      throw new Error(`cannot read ${this.name} again (bytes ${s}–${s + len}): ${why}`);
    }
    return out;
  }

  close(): void {
    if (this.#fd === undefined) return;
    closer.unregister(this);
    try {
      closeSync(this.#fd);
    } catch {
      // Already closed.
    }
    this.#fd = undefined;
  }
}

/** A VFP dump's bytes after a trip across threads (structured cloning drops classes): the source again. */
export function reviveBytes(x: unknown): ByteSource {
  const o = x as { kind?: string; path?: string; size?: number; name?: string; whole?: Uint8Array };
  if (o && o.kind === 'file' && typeof o.path === 'string' && typeof o.size === 'number') return new FileBytes(o.path, o.size, o.name);
  if (x instanceof Uint8Array) return new MemoryBytes(x);
  if (o && o.whole instanceof Uint8Array) return new MemoryBytes(o.whole);
  const inner = o as { src?: unknown; offset?: number };
  if (inner && inner.src !== undefined && typeof inner.offset === 'number') {
    return new OffsetBytes(reviveBytes(inner.src), inner.offset);
  }
  return new MemoryBytes(new Uint8Array(0));
}

/** Whether a worker can read the same bytes without a copy: a file, or memory shared between threads. */
export function shareableBytes(b: ByteSource): boolean {
  if (b instanceof FileBytes) return true;
  const inner = (b as { src?: ByteSource }).src;
  if (inner) return shareableBytes(inner);
  return b.whole !== undefined && b.whole.buffer instanceof SharedArrayBuffer;
}

/** A parsed VFP dump after a trip across threads: its bytes' source and its index's methods again. */
export function reviveVfpContent(c: { bytes: ByteSource; index: VfpIndex }): void {
  c.bytes = reviveBytes(c.bytes);
  c.index = reviveVfpIndex(c.index, c.bytes);
}
