// Files uploaded by the page (browser mode's drag and drop): streamed to one private folder of this
// server, capped in size, and deleted when their bundle is closed (or never loaded) and when the
// server closes.
import type http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { formatBytes } from '../bundle/limits.ts';

export class UploadTooLarge extends Error {
  override name = 'UploadTooLarge';
}

export class Uploads {
  private dir?: Promise<string>;
  private seq = 0;
  /** The file of each upload kept now → its own folder. */
  private files = new Map<string, string>();

  /** `onFolder`: told the private folder when it is made (the backend distrusts what is in it). */
  constructor(
    private readonly limit: number,
    private readonly onFolder?: (dir: string) => void,
  ) {}

  /** Streams the request body to a new file named after `name`; refuses past the limit (the part written is deleted). */
  async save(req: http.IncomingMessage, name: string, declaredSize: number): Promise<string> {
    if (declaredSize > this.limit) throw new UploadTooLarge(`the file is ${formatBytes(declaredSize)}, more than the upload limit (${formatBytes(this.limit)}: what hnsight reads from one bundle)`);
    this.dir ??= fs.mkdtemp(path.join(os.tmpdir(), 'hnsight-upload-')).then((d) => {
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
        await fh.write(chunk);
      }
    } catch (e) {
      await fh.close().catch(() => undefined);
      await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
      throw e;
    }
    await fh.close();
    this.files.set(file, folder);
    return file;
  }

  /** Deletes the upload at `file` (its bundle was closed or failed to load); anything else is left alone. */
  async release(file: string): Promise<void> {
    const folder = this.files.get(file);
    if (!folder) return;
    this.files.delete(file);
    await fs.rm(folder, { recursive: true, force: true }).catch(() => undefined);
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
