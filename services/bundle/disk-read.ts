// Reading files on disk in bounded pieces: in chunks into one array (fs.readFile stops at 2 GiB),
// never more than asked — a file that grows meanwhile (a live log) is read as it was listed.
import { promises as fs } from 'node:fs';

const CHUNK = 8 * 1024 * 1024;

/**
 * The first `n` bytes of a file (fewer when it is shorter), in an array from `alloc` (the parse worker
 * reads a VFP dump into shared memory this way).
 */
export async function readFilePrefix(file: string, n: number, alloc: (length: number) => Uint8Array = (l) => new Uint8Array(l)): Promise<Uint8Array> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const out = alloc(Math.min(n, size));
    let off = 0;
    while (off < out.length) {
      const { bytesRead } = await fh.read(out, off, Math.min(CHUNK, out.length - off), off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return off === out.length ? out : out.subarray(0, off);
  } finally {
    await fh.close();
  }
}

/** The first and last `n` bytes of a file, or the whole file when it is at most 2n bytes. */
export async function readFileEdges(file: string, n: number): Promise<Uint8Array[]> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const read = async (pos: number, len: number) => {
      const buf = new Uint8Array(len);
      let off = 0;
      while (off < len) {
        const { bytesRead } = await fh.read(buf, off, len - off, pos + off);
        if (bytesRead === 0) break;
        off += bytesRead;
      }
      return buf.subarray(0, off);
    };
    if (size <= 2 * n) return [await read(0, size)];
    return [await read(0, n), await read(size - n, n)];
  } finally {
    await fh.close();
  }
}
