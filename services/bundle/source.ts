// Opens what the user points at — a CollectLogs folder, a .zip of one, or a single saved output
// file — as a flat list of entries read on demand. Plain Node: used by the CLI, the local server and
// Electron's main process alike.
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';
import { limitsFromEnv, OverBudget, type BundleLimits } from './limits.ts';
import { readFilePrefix, readFileEdges } from './disk-read.ts';
import { extractZipEntry, readZipEdges, readZipEntry, readZipHead } from './zip-read.ts';

export interface BundleEntry {
  /** Path relative to the opened folder or zip root, '/'-separated. */
  path: string;
  /** Its size: on disk, or inflated as the zip's header says (yauzl holds the stream to it). */
  size: number;
  /** Where the file lies on disk, for entries that are plain files (lets a worker read it itself). */
  diskPath?: string;
  /** A text held in memory (a paste, standard input), not a file of the bundle on disk. */
  inMemory?: true;
  /** A zip entry's size as stored (compressed), from its header. */
  compressedSize?: number;
  /** The whole file; OverBudget past `maxBytes` (the source's per-file budget by default). */
  read(maxBytes?: number): Promise<Uint8Array>;
  /** Its first `n` bytes; a zip entry is inflated no further. */
  readHead(n: number): Promise<Uint8Array>;
  /**
   * Its first and last `n` bytes (all of it when it has at most 2n), in bounded memory. A zip entry
   * must be inflated up to its end for them: OverBudget when it has more than `maxBytes`.
   */
  readEdges(n: number, maxBytes?: number): Promise<Uint8Array[]>;
  /**
   * A zip entry: inflates it whole into the open file `fd` (a temporary file), a chunk at a time;
   * OverBudget past `maxBytes`. Returns the bytes written.
   */
  extract?(fd: number, maxBytes: number): Promise<number>;
}

export interface BundleSource {
  kind: 'folder' | 'zip' | 'file';
  location: string;
  entries: BundleEntry[];
  /** The budgets this source was opened with. */
  limits: BundleLimits;
  close(): Promise<void>;
}

export type { BundleLimits as SourceLimits } from './limits.ts';
export { DEFAULT_LIMITS, OverBudget } from './limits.ts';

/** The input cannot be opened as a bundle at all (CLI exit code 2). The message is for the user. */
export class BundleOpenError extends Error {
  override name = 'BundleOpenError';
}

function diskEntry(rel: string, abs: string, size: number, limits: BundleLimits): BundleEntry {
  return {
    path: rel,
    size,
    diskPath: abs,
    // The file as listed: one that grows meanwhile (a live log) is read up to the size it had.
    read: async (max = limits.maxEntryBytes) => {
      if (size > max) throw new OverBudget(rel, size, max, 'file');
      return readFilePrefix(abs, size);
    },
    readHead: (n) => readFilePrefix(abs, n),
    // Two reads at the ends, whatever the file's size: nothing to budget.
    readEdges: (n) => readFileEdges(abs, n),
  };
}

/**
 * Lists what `location` holds, reading nothing yet: entries are read on demand within `limits`
 * (HNSIGHT_MAX_FILE_BYTES / HNSIGHT_MAX_BUNDLE_BYTES or the defaults). Only a listing that cannot be a
 * bundle (unreadable, zip-slip, too many entries) is refused whole.
 */
export async function openBundle(location: string, limits?: BundleLimits): Promise<BundleSource> {
  limits ??= envLimits();
  let stat;
  try {
    stat = await fs.stat(location);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BundleOpenError(code === 'ENOENT' ? `no such file or folder: ${location}` : `cannot open ${location}: ${code ?? String(e)}`);
  }
  if (stat.isDirectory()) return openFolder(location, limits);
  if (!stat.isFile()) throw new BundleOpenError(`not a file or folder: ${location}`);
  if (await looksLikeZip(location)) return openZip(location, limits);
  // A single file over the budget is still a bundle: its one file is listed with the reason it is not read.
  return { kind: 'file', location, limits, entries: [diskEntry(path.basename(location), location, stat.size, limits)], close: async () => {} };
}

/**
 * Several single files as one bundle: outputs saved or pasted one by one (an endpoint.txt from one
 * ticket, a vfpctrl dump from another). Folders and zips are bundles of their own and are refused.
 * Sizes are judged when a file is read, like a folder's: one over budget is named, the rest load.
 */
export async function openFiles(locations: readonly string[], limits?: BundleLimits): Promise<BundleSource> {
  if (locations.length === 1) return openBundle(locations[0], limits);
  const lim = limits ?? envLimits();
  const entries: BundleEntry[] = [];
  const names = new Set<string>();
  for (const location of locations) {
    let stat;
    try {
      stat = await fs.stat(location);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new BundleOpenError(code === 'ENOENT' ? `no such file: ${location}` : `cannot open ${location}: ${code ?? String(e)}`);
    }
    if (!stat.isFile()) throw new BundleOpenError(`${location} is a folder: give one bundle folder or zip alone, or several single files`);
    if (await looksLikeZip(location)) throw new BundleOpenError(`${location} is a zip: give one bundle folder or zip alone, or several single files`);
    if (entries.length >= lim.maxEntries) throw new BundleOpenError(`more than ${lim.maxEntries} files given; refusing to read them`);
    entries.push(diskEntry(uniqueName(path.basename(location), names), location, stat.size, lim));
  }
  return { kind: 'file', location: locations.join(' + '), limits: lim, entries, close: async () => {} };
}

/** A text held in memory as an entry: read within the same budgets as a file on disk. */
function memoryEntry(rel: string, bytes: Uint8Array, limits: BundleLimits): BundleEntry {
  return {
    path: rel,
    size: bytes.length,
    inMemory: true,
    read: async (max = limits.maxEntryBytes) => {
      if (bytes.length > max) throw new OverBudget(rel, bytes.length, max, 'file');
      return bytes;
    },
    readHead: async (n) => bytes.subarray(0, n),
    readEdges: async (n) => (bytes.length <= 2 * n ? [bytes] : [bytes.subarray(0, n), bytes.subarray(bytes.length - n)]),
  };
}

/** Texts held in memory (standard input, pasted outputs) as a bundle of single files. */
export function textSource(items: readonly { name: string; bytes: Uint8Array }[], location: string, limits?: BundleLimits): BundleSource {
  const lim = limits ?? envLimits();
  const names = new Set<string>();
  const entries = items.map((it) => memoryEntry(uniqueName(it.name.replace(/[\\/]/g, '_') || 'pasted.txt', names), it.bytes, lim));
  return { kind: 'file', location, limits: lim, entries, close: async () => {} };
}

/** `name`, or `name (2)` … when taken (`taken` holds lower-cased names): two saved files may share a base name. */
export function uniqueName(name: string, taken: Set<string>): string {
  let n = name;
  for (let k = 2; taken.has(n.toLowerCase()); k++) {
    const dot = name.lastIndexOf('.');
    n = dot > 0 ? `${name.slice(0, dot)} (${k})${name.slice(dot)}` : `${name} (${k})`;
  }
  taken.add(n.toLowerCase());
  return n;
}

/** The budgets from the environment (HNSIGHT_MAX_FILE_BYTES …), a bad value refused in the user's words. */
function envLimits(): BundleLimits {
  try {
    return limitsFromEnv();
  } catch (e) {
    throw new BundleOpenError((e as Error).message);
  }
}

export async function looksLikeZip(p: string): Promise<boolean> {
  const fh = await fs.open(p, 'r');
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    return bytesRead === 4 && buf[0] === 0x50 && buf[1] === 0x4b && (buf[2] === 3 || buf[2] === 5) && (buf[3] === 4 || buf[3] === 6);
  } finally {
    await fh.close();
  }
}

async function openFolder(root: string, limits: BundleLimits): Promise<BundleSource> {
  const entries: BundleEntry[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > 12) return;
    let list: Dirent[];
    try {
      list = await fs.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (depth === 0) throw new BundleOpenError(`cannot read folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      return;
    }
    list.sort((a, b) => a.name.localeCompare(b.name));
    for (const d of list) {
      const abs = path.join(dir, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      // Symlinks are not followed: a bundle is evidence, and a link could point anywhere on the machine.
      if (d.isDirectory()) await walk(abs, r, depth + 1);
      else if (d.isFile()) {
        if (entries.length >= limits.maxEntries) throw new BundleOpenError(`the folder holds more than ${limits.maxEntries} files; refusing to read it`);
        // lstat: a file replaced by a link since the listing is not followed either.
        const st = await fs.lstat(abs);
        if (st.isFile()) entries.push(diskEntry(r, abs, st.size, limits));
      }
    }
  };
  await walk(root, '', 0);
  return { kind: 'folder', location: root, limits, entries, close: async () => {} };
}

/** Rejects names that would escape the bundle when extracted (zip-slip) before anything is read. */
export function checkZipEntryName(name: string): string | undefined {
  if (name.includes('\u0000')) return 'contains a NUL character';
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n)) return 'is an absolute path';
  if (n.split('/').some((seg) => seg === '..')) return 'climbs out of the archive with ".."';
  return undefined;
}

function openZip(location: string, limits: BundleLimits): Promise<BundleSource> {
  return new Promise((resolve, reject) => {
    yauzl.open(location, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (err, zip) => {
      if (err || !zip) {
        reject(new BundleOpenError(`${location} is not a readable zip: ${err?.message ?? 'unknown error'}`));
        return;
      }
      const entries: BundleEntry[] = [];
      const fail = (msg: string) => {
        zip.close();
        reject(new BundleOpenError(msg));
      };
      zip.on('error', (e: Error) => {
        // yauzl checks names itself while decoding them; report its refusal in the same words as ours.
        const slip = /^(invalid relative path|absolute path): (.*)$/.exec(e.message);
        if (slip) fail(`refusing ${location}: entry "${slip[2]}" ${slip[1] === 'absolute path' ? 'is an absolute path' : 'climbs out of the archive with ".."'} (zip-slip)`);
        else fail(`${location} is not a readable zip: ${e.message}`);
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName;
        const bad = checkZipEntryName(name);
        if (bad) return fail(`refusing ${location}: entry "${name}" ${bad} (zip-slip)`);
        if (name.endsWith('/')) return zip.readEntry();
        if (entries.length >= limits.maxEntries) return fail(`refusing ${location}: more than ${limits.maxEntries} entries`);
        // Sizes are not judged here: nothing is inflated until a parser asks, and then only within
        // the budgets, counted as the bytes arrive (zip-read.ts).
        const rel = name.replace(/\\/g, '/');
        entries.push({
          path: rel,
          size: entry.uncompressedSize,
          compressedSize: entry.compressedSize,
          read: (max = limits.maxEntryBytes) => readZipEntry(zip, entry, max, rel),
          readHead: (n) => readZipHead(zip, entry, n),
          readEdges: (n, max = limits.maxEntryBytes) => readZipEdges(zip, entry, n, max, rel),
          extract: (fd, max) => extractZipEntry(zip, entry, fd, max, rel),
        });
        zip.readEntry();
      });
      zip.on('end', () => resolve({ kind: 'zip', location, limits, entries, close: async () => zip.close() }));
      zip.readEntry();
    });
  });
}
