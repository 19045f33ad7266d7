// Builds zips for tests with yazl, in memory.
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
