// Builds zips for tests with yazl, in memory.
import zlib from 'node:zlib';
import yazl from 'yazl';

export function makeZip(files: Record<string, string | Uint8Array>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const z = new yazl.ZipFile();
    for (const [name, content] of Object.entries(files)) {
      z.addBuffer(typeof content === 'string' ? Buffer.from(content) : Buffer.from(content), name, { mtime: new Date(2024, 0, 1) });
    }
    z.end();
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

/** yazl refuses unsafe names, so write a same-length safe name and patch it in the local and central headers. */
export function patchName(zip: Buffer, safe: string, unsafe: string): Buffer {
  if (safe.length !== unsafe.length) throw new Error('names must have the same length');
  const out = Buffer.from(zip);
  const from = Buffer.from(safe);
  let i = out.indexOf(from);
  while (i >= 0) {
    out.write(unsafe, i);
    i = out.indexOf(from, i + 1);
  }
  return out;
}

/**
 * A zip whose entries inflate to `sizes[name]` zero bytes (each < 4 GiB), built without compressing
 * them: one megabyte of zeros is deflated once into a full-flushed (self-contained, byte-aligned)
 * block, and an entry's data is that block repeated, then an empty final block. Three 3.5 GiB entries
 * make an 11 MB file — the shape of the zip bomb the audit used. The CRC fields are left 0: yauzl does
 * not check CRCs, and a correct CRC would change nothing for a reader that stops by counting.
 * An entry given as bytes instead of a size is a real file beside the zeros: stored as it is, with its CRC.
 */
export function zeroZip(sizes: Record<string, number | Uint8Array>): Buffer {
  const MiB = 1024 * 1024;
  const block = deflateBlockOfZeros(MiB);
  const finalBlock = Buffer.from([0x03, 0x00]); // an empty fixed-Huffman block marked final
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, entry] of Object.entries(sizes)) {
    const stored = typeof entry === 'number' ? undefined : Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
    const size = stored ? stored.length : (entry as number);
    if (!stored && (size % MiB !== 0 || size >= 2 ** 32)) throw new Error('zeroZip sizes are whole MiB under 4 GiB');
    const n = size / MiB;
    const nameBuf = Buffer.from(name);
    const compressed = stored ? stored.length : block.length * n + finalBlock.length;
    const method = stored ? 0 : 8;
    const crc = stored ? zlib.crc32(stored) : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(method, 8); // deflate, or stored
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(0, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt16LE(0, 12);
    cd.writeUInt16LE(0x21, 14);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(compressed, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(nameBuf.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, nameBuf);
    parts.push(local, nameBuf);
    if (stored) parts.push(stored);
    else {
      for (let i = 0; i < n; i++) parts.push(block);
      parts.push(finalBlock);
    }
    offset += local.length + nameBuf.length + compressed;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(Object.keys(sizes).length, 8);
  eocd.writeUInt16LE(Object.keys(sizes).length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, eocd]);
}

/** Deflate of `n` zero bytes as non-final blocks ending at a full flush (no reference to what precedes). */
function deflateBlockOfZeros(n: number): Buffer {
  const d = zlib.deflateRawSync(Buffer.alloc(n), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  return d;
}
