// Opens what the user points at — a CollectLogs folder, a .zip of one, or a single saved output
// file — as a flat list of entries read on demand. Plain Node: used by the CLI, the local server and
// Electron's main process alike.
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';

export interface BundleEntry {
  /** Path relative to the opened folder or zip root, '/'-separated. */
  path: string;
  size: number;
  /** Where the file lies on disk, for entries that are plain files (lets a worker read it itself). */
  diskPath?: string;
  /** A text held in memory (a paste, standard input), not a file of the bundle on disk. */
  inMemory?: true;
  read(): Promise<Uint8Array>;
}

export interface BundleSource {
  kind: 'folder' | 'zip' | 'file';
  location: string;
  entries: BundleEntry[];
  close(): Promise<void>;
}

export interface SourceLimits {
  /** Largest single file accepted (bytes). */
  maxEntryBytes: number;
  /** Largest total of all files accepted (bytes). */
  maxTotalBytes: number;
  maxEntries: number;
  /** Largest uncompressed/compressed ratio accepted for big zip entries (zip bombs). */
  maxRatio: number;
}

export const DEFAULT_LIMITS: SourceLimits = {
  maxEntryBytes: 4 * 1024 ** 3,
  maxTotalBytes: 16 * 1024 ** 3,
  maxEntries: 50_000,
  maxRatio: 2000,
};

/** The input cannot be opened as a bundle at all (CLI exit code 2). The message is for the user. */
export class BundleOpenError extends Error {
  override name = 'BundleOpenError';
}

export async function openBundle(location: string, limits: SourceLimits = DEFAULT_LIMITS): Promise<BundleSource> {
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
  if (stat.size > limits.maxEntryBytes) throw new BundleOpenError(`${location} is ${stat.size} bytes, larger than the ${limits.maxEntryBytes}-byte limit`);
  const name = path.basename(location);
  return {
    kind: 'file',
    location,
    entries: [{ path: name, size: stat.size, diskPath: location, read: () => readWhole(location) }],
    close: async () => {},
  };
}

/**
 * Several single files as one bundle: outputs saved or pasted one by one (an endpoint.txt from one
 * ticket, a vfpctrl dump from another). Folders and zips are bundles of their own and are refused.
 */
export async function openFiles(locations: readonly string[], limits: SourceLimits = DEFAULT_LIMITS): Promise<BundleSource> {
  if (locations.length === 1) return openBundle(locations[0], limits);
  const entries: BundleEntry[] = [];
  const names = new Set<string>();
  let total = 0;
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
    if (stat.size > limits.maxEntryBytes) throw new BundleOpenError(`${location} is ${stat.size} bytes, larger than the ${limits.maxEntryBytes}-byte limit`);
    total += stat.size;
    if (total > limits.maxTotalBytes) throw new BundleOpenError(`the files hold more than ${limits.maxTotalBytes} bytes; refusing to read them`);
    const name = uniqueName(path.basename(location), names);
    entries.push({ path: name, size: stat.size, diskPath: location, read: () => readWhole(location) });
  }
  return { kind: 'file', location: locations.join(' + '), entries, close: async () => {} };
}

/** Texts held in memory (standard input, pasted outputs) as a bundle of single files. */
export function textSource(items: readonly { name: string; bytes: Uint8Array }[], location: string, limits: SourceLimits = DEFAULT_LIMITS): BundleSource {
  const names = new Set<string>();
  let total = 0;
  const entries: BundleEntry[] = items.map((it) => {
    if (it.bytes.length > limits.maxEntryBytes) throw new BundleOpenError(`${it.name} is ${it.bytes.length} bytes, larger than the ${limits.maxEntryBytes}-byte limit`);
    total += it.bytes.length;
    if (total > limits.maxTotalBytes) throw new BundleOpenError(`the texts hold more than ${limits.maxTotalBytes} bytes; refusing to read them`);
    const bytes = it.bytes;
    return { path: uniqueName(it.name.replace(/[\\/]/g, '_') || 'pasted.txt', names), size: bytes.length, inMemory: true, read: async () => bytes };
  });
  return { kind: 'file', location, entries, close: async () => {} };
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

async function readWhole(p: string): Promise<Uint8Array> {
  const b = await fs.readFile(p);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
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

async function openFolder(root: string, limits: SourceLimits): Promise<BundleSource> {
  const entries: BundleEntry[] = [];
  let total = 0;
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
        const st = await fs.stat(abs);
        if (st.size > limits.maxEntryBytes) throw new BundleOpenError(`${r} is ${st.size} bytes, larger than the ${limits.maxEntryBytes}-byte limit`);
        total += st.size;
        if (total > limits.maxTotalBytes) throw new BundleOpenError(`the folder holds more than ${limits.maxTotalBytes} bytes; refusing to read it`);
        if (entries.length >= limits.maxEntries) throw new BundleOpenError(`the folder holds more than ${limits.maxEntries} files; refusing to read it`);
        entries.push({ path: r, size: st.size, diskPath: abs, read: () => readWhole(abs) });
      }
    }
  };
  await walk(root, '', 0);
  return { kind: 'folder', location: root, entries, close: async () => {} };
}

/** Rejects names that would escape the bundle when extracted (zip-slip) before anything is read. */
export function checkZipEntryName(name: string): string | undefined {
  if (name.includes('\u0000')) return 'contains a NUL character';
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n)) return 'is an absolute path';
  if (n.split('/').some((seg) => seg === '..')) return 'climbs out of the archive with ".."';
  return undefined;
}

function openZip(location: string, limits: SourceLimits): Promise<BundleSource> {
  return new Promise((resolve, reject) => {
    yauzl.open(location, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (err, zip) => {
      if (err || !zip) {
        reject(new BundleOpenError(`${location} is not a readable zip: ${err?.message ?? 'unknown error'}`));
        return;
      }
      const entries: BundleEntry[] = [];
      let total = 0;
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
        if (entry.uncompressedSize > limits.maxEntryBytes)
          return fail(`refusing ${location}: entry "${name}" would expand to ${entry.uncompressedSize} bytes (limit ${limits.maxEntryBytes})`);
        if (entry.uncompressedSize > 64 * 1024 * 1024 && entry.uncompressedSize / Math.max(1, entry.compressedSize) > limits.maxRatio)
          return fail(`refusing ${location}: entry "${name}" expands ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))}× (zip bomb?)`);
        total += entry.uncompressedSize;
        if (total > limits.maxTotalBytes) return fail(`refusing ${location}: it would expand to more than ${limits.maxTotalBytes} bytes`);
        if (entries.length >= limits.maxEntries) return fail(`refusing ${location}: more than ${limits.maxEntries} entries`);
        entries.push({ path: name.replace(/\\/g, '/'), size: entry.uncompressedSize, read: () => readZipEntry(zip, entry) });
        zip.readEntry();
      });
      zip.on('end', () => resolve({ kind: 'zip', location, entries, close: async () => zip.close() }));
      zip.readEntry();
    });
  });
}

function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(new Error(`cannot read ${entry.fileName} from the zip: ${err?.message}`));
      const out = new Uint8Array(entry.uncompressedSize);
      let off = 0;
      stream.on('data', (chunk: Buffer) => {
        if (off + chunk.length > out.length) {
          stream.destroy(new Error(`${entry.fileName} is larger than its zip header says`));
          return;
        }
        out.set(chunk, off);
        off += chunk.length;
      });
      stream.on('error', (e) => reject(new Error(`cannot read ${entry.fileName} from the zip: ${e.message}`)));
      stream.on('end', () => resolve(off === out.length ? out : out.subarray(0, off)));
    });
  });
}
