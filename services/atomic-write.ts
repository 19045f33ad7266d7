// Writes a file so that a crash, a kill or a power loss mid-write leaves either the old or the new
// content, never a torn one: a private temp file beside it, flushed, renamed over the target, and the
// folder flushed so the rename itself reaches the disk. A failed write leaves no temp file behind.
import { promises as fs, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const tmp = tempName(file);
  try {
    const fh = await fs.open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dir);
}

/** The synchronous twin, for a window's `close` handler (the process may quit right after). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const tmp = tempName(file);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
}

async function syncDir(dir: string): Promise<void> {
  // Not every platform lets a folder be opened for fsync (Windows); the rename is atomic there anyway.
  try {
    const d = await fs.open(dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
  } catch {
    // see above
  }
}
