// Inflating one zip entry within a byte budget, counting bytes as they stream: the whole entry (refused
// before inflating anything when its header already says it is over budget, stopped the moment more
// arrives than the budget or the header allow), only its head, or its first and last bytes.
import type yauzl from 'yauzl';
import type { Readable } from 'node:stream';
import { writeSync } from 'node:fs';
import { OverBudget } from './limits.ts';

function open(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) reject(new Error(`cannot read ${entry.fileName} from the zip: ${err?.message ?? 'no stream'}`));
      else resolve(stream);
    });
  });
}

/**
 * Feeds the entry's inflated chunks to `take` until it returns false (then stops inflating) or the
 * entry ends. Never holds more than the chunk in flight.
 */
async function stream(zip: yauzl.ZipFile, entry: yauzl.Entry, take: (chunk: Buffer) => boolean): Promise<void> {
  const s = await open(zip, entry);
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (e?: Error) => {
      if (done) return;
      done = true;
      if (e) reject(e);
      else resolve();
    };
    s.on('data', (chunk: Buffer) => {
      if (done) return;
      let more: boolean;
      try {
        more = take(chunk);
      } catch (e) {
        s.destroy();
        finish(e as Error);
        return;
      }
      if (!more) {
        s.destroy();
        finish();
      }
    });
    s.on('error', (e) => finish(new Error(`cannot read ${entry.fileName} from the zip: ${e.message}`)));
    s.on('end', () => finish());
    s.on('close', () => finish());
  });
}

/** The whole entry; OverBudget when it has more than `maxBytes` (by its header, or as it inflates). */
export async function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, maxBytes: number, name = entry.fileName): Promise<Uint8Array> {
  if (entry.uncompressedSize > maxBytes) throw new OverBudget(name, entry.uncompressedSize, maxBytes, 'file');
  const out = new Uint8Array(entry.uncompressedSize);
  let off = 0;
  await stream(zip, entry, (chunk) => {
    // yauzl checks the header's size too (validateEntrySizes); this count does not rely on it.
    if (off + chunk.length > out.length) throw new Error(`cannot read ${entry.fileName} from the zip: it holds more than the ${entry.uncompressedSize} bytes its header says`);
    out.set(chunk, off);
    off += chunk.length;
    return true;
  });
  return off === out.length ? out : out.subarray(0, off);
}

/** The first `n` inflated bytes of the entry; nothing past them is inflated. */
export async function readZipHead(zip: yauzl.ZipFile, entry: yauzl.Entry, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(Math.min(n, entry.uncompressedSize));
  let off = 0;
  if (out.length === 0) return out;
  await stream(zip, entry, (chunk) => {
    const k = Math.min(chunk.length, out.length - off);
    out.set(chunk.subarray(0, k), off);
    off += k;
    return off < out.length;
  });
  return out.subarray(0, off);
}

/**
 * The first and last `n` bytes of the entry (the whole entry when it has at most 2n), holding no more
 * than about 3n bytes while it inflates. OverBudget when the entry has more than `maxBytes`.
 */
export async function readZipEdges(zip: yauzl.ZipFile, entry: yauzl.Entry, n: number, maxBytes: number, name = entry.fileName): Promise<Uint8Array[]> {
  if (entry.uncompressedSize > maxBytes) throw new OverBudget(name, entry.uncompressedSize, maxBytes, 'file');
  const head = new Uint8Array(Math.min(n, entry.uncompressedSize));
  let headLen = 0;
  let tail: Buffer[] = [];
  let tailLen = 0;
  let total = 0;
  await stream(zip, entry, (chunk) => {
    total += chunk.length;
    if (total > maxBytes) throw new OverBudget(name, total, maxBytes, 'file');
    if (headLen < head.length) {
      const k = Math.min(chunk.length, head.length - headLen);
      head.set(chunk.subarray(0, k), headLen);
      headLen += k;
    }
    tail.push(chunk);
    tailLen += chunk.length;
    // Drop chunks that lie wholly before the last n bytes.
    while (tail.length > 1 && tailLen - tail[0].length >= n) tailLen -= tail.shift()!.length;
    return true;
  });
  const t = Buffer.concat(tail);
  tail = [];
  if (total <= 2 * n) {
    // The head and the bytes after it (all still in the tail) are the whole entry.
    const whole = new Uint8Array(total);
    whole.set(head.subarray(0, headLen), 0);
    whole.set(t.subarray(t.length - (total - headLen)), headLen);
    return [whole];
  }
  return [head.subarray(0, headLen), new Uint8Array(t.subarray(t.length - n))];
}

/**
 * Inflates the whole entry into the open file `fd` (a temporary file, temp-files.ts), a chunk at a time:
 * never more than the chunk in flight in memory. OverBudget when it has more than `maxBytes` (by its
 * header, or as it inflates). Returns the bytes written.
 */
export async function extractZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, fd: number, maxBytes: number, name = entry.fileName): Promise<number> {
  if (entry.uncompressedSize > maxBytes) throw new OverBudget(name, entry.uncompressedSize, maxBytes, 'file');
  let off = 0;
  await stream(zip, entry, (chunk) => {
    if (off + chunk.length > entry.uncompressedSize) throw new Error(`cannot read ${entry.fileName} from the zip: it holds more than the ${entry.uncompressedSize} bytes its header says`);
    let w = 0;
    while (w < chunk.length) w += writeSync(fd, chunk, w, chunk.length - w, off + w);
    off += chunk.length;
    return true;
  });
  return off;
}
