// Files uploaded by the page (browser mode's drag and drop): streamed to one private folder of this
// server, capped in size (each, and all kept together, and how many), and deleted when their bundle
// or cluster is closed (or never loaded) and when the server closes. Folders left by a server of this
// user that is no longer running (it was killed) are swept when the next one starts.
import type http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { formatBytes } from '../bundle/limits.ts';

export class UploadTooLarge extends Error {
  override name = 'UploadTooLarge';
}

const PREFIX = 'hnsight-upload-';
/** Names the server that made an upload folder, so a later one can tell whether it still runs. */
const OWNER_FILE = '.owner-pid';
/** A folder without an owner file (or unreadable) is swept once it is this old. */
const ORPHAN_AGE_MS = 24 * 3600 * 1000;

export interface UploadCaps {
  /** Uploads kept at once (default 64). */
  maxCount?: number;
  /** Bytes of all uploads kept at once, those under way included (default 4 × the per-upload limit). */
  maxTotal?: number;
}

export class Uploads {
  private dir?: Promise<string>;
  private seq = 0;
  /** The file of each upload kept now → its own folder and size. */
  private files = new Map<string, { folder: string; bytes: number }>();
  /** Bytes declared by uploads under way (reserved against maxTotal before a byte is written). */
  private pending = 0;
  private pendingCount = 0;
  private readonly maxCount: number;
  private readonly maxTotal: number;

  /** `onFolder`: told the private folder when it is made (the backend distrusts what is in it). */
  constructor(
    private readonly limit: number,
    private readonly onFolder?: (dir: string) => void,
    caps: UploadCaps = {},
  ) {
    this.maxCount = caps.maxCount ?? 64;
    this.maxTotal = caps.maxTotal ?? 4 * limit;
  }

  /**
   * Streams the request body to a new file named after `name`; refuses past the limit, past the
   * size it declared, and when the uploads kept would pass their count or total (the part written is
   * deleted).
   */
  async save(req: http.IncomingMessage, name: string, declaredSize: number): Promise<string> {
    if (declaredSize > this.limit) throw new UploadTooLarge(`the file is ${formatBytes(declaredSize)}, more than the upload limit (${formatBytes(this.limit)}: what hnsight reads from one bundle)`);
    const keptBytes = [...this.files.values()].reduce((n, f) => n + f.bytes, 0) + this.pending;
    if (this.files.size + this.pendingCount >= this.maxCount) throw new UploadTooLarge(`${this.files.size + this.pendingCount} uploaded files are open already, the most this server keeps: close a bundle or cluster first`);
    if (keptBytes + declaredSize > this.maxTotal) throw new UploadTooLarge(`the uploads open now hold ${formatBytes(keptBytes)}; ${formatBytes(declaredSize)} more would pass the ${formatBytes(this.maxTotal)} this server keeps: close a bundle or cluster first`);
    this.pending += declaredSize;
    this.pendingCount++;
    try {
      return await this.write(req, name, declaredSize);
    } finally {
      this.pending -= declaredSize;
      this.pendingCount--;
    }
  }

  private async write(req: http.IncomingMessage, name: string, declaredSize: number): Promise<string> {
    this.dir ??= fs.mkdtemp(path.join(os.tmpdir(), PREFIX)).then(async (d) => {
      await fs.writeFile(path.join(d, OWNER_FILE), String(process.pid), { mode: 0o600 });
      this.onFolder?.(d);
      return d;
    });
    const folder = path.join(await this.dir, String(++this.seq));
    await fs.mkdir(folder, { mode: 0o700 });
    const safe = path.basename(name).replace(/[^\w.\- ]/g, '_').replace(/^\.+/, '') || 'bundle.zip';
    const file = path.join(folder, safe);
    const fh = await fs.open(file, 'wx', 0o600);
    let n = 0;
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) {
        n += chunk.length;
        if (n > this.limit) throw new UploadTooLarge(`the upload is larger than the upload limit (${formatBytes(this.limit)})`);
        if (n > declaredSize) throw new UploadTooLarge(`the upload is larger than the ${formatBytes(declaredSize)} it declared`);
        await fh.write(chunk);
      }
    } catch (e) {
      await fh.close().catch(() => undefined);
      await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
      throw e;
    }
    await fh.close();
    this.files.set(file, { folder, bytes: n });
    return file;
  }

  /** Deletes the upload at `file` (its bundle was closed or failed to load); anything else is left alone. */
  async release(file: string): Promise<void> {
    const kept = this.files.get(file);
    if (!kept) return;
    this.files.delete(file);
    await fs.rm(kept.folder, { recursive: true, force: true }).catch(() => undefined);
  }

  /** The uploads kept now. */
  get kept(): string[] {
    return [...this.files.keys()];
  }

  /** Deletes every upload (the server is closing). */
  async clear(): Promise<void> {
    const d = this.dir;
    this.dir = undefined;
    this.files.clear();
    if (d) await fs.rm(await d, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Deletes the upload folders of this user in `tmp` left by a server that no longer runs: its owner
 * file names a process that is gone, or it has none and is a day old. Another server running now keeps
 * its own. Returns the folders deleted.
 */
export async function sweepUploads(tmp = os.tmpdir(), alive: (pid: number) => boolean = processAlive): Promise<string[]> {
  const swept: string[] = [];
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = await fs.readdir(tmp);
  } catch {
    return swept;
  }
  for (const n of names) {
    if (!n.startsWith(PREFIX)) continue;
    const d = path.join(tmp, n);
    try {
      const st = await fs.lstat(d);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      const owner = Number((await fs.readFile(path.join(d, OWNER_FILE), 'utf8').catch(() => '')).trim());
      const gone = Number.isInteger(owner) && owner > 0 ? owner !== process.pid && !alive(owner) : Date.now() - st.mtimeMs > ORPHAN_AGE_MS;
      if (!gone) continue;
      await fs.rm(d, { recursive: true, force: true });
      swept.push(d);
    } catch {
      /* another user's, or gone already: left alone */
    }
  }
  return swept;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
