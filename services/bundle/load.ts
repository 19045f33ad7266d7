// Loads a bundle from disk into a NodeModel: open (folder/zip/file), find the bundle root, read and
// parse each file, assemble. Reports progress and honours cancellation between files.
import { openBundle, openFiles, textSource, type BundleEntry, type BundleSource, type SourceLimits, DEFAULT_LIMITS } from './source.ts';
import { findBundleRoot } from '../../parsers/bundle/root.ts';
import { parseBundleFile, type ParsedFile } from '../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../parsers/model/assemble.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { ParsePool } from './parse-pool.ts';
import { openOrigin, type BundleOrigin } from './origin.ts';

/** Files at least this big are parsed in the worker thread while the main thread does the rest. */
const BIG_FILE = 16 * 1024 * 1024;

export interface LoadProgress {
  phase: 'listing' | 'reading' | 'assembling' | 'done';
  file?: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface LoadOptions {
  onProgress?: (p: LoadProgress) => void;
  signal?: AbortSignal;
  limits?: SourceLimits;
  /** Files at least this big go to the worker thread (default 16 MiB). */
  bigFileBytes?: number;
  /**
   * Files already parsed, by name in the bundle: taken as they are instead of read again (the findings
   * worker rebuilds a node this way, sharing the VFP dump's memory with the node it was loaded for).
   */
  reuse?: ReadonlyMap<string, ParsedFile>;
  /** Called with every file parsed in the worker thread (the big ones), before the node is assembled. */
  onBigParsed?: (parsed: ParsedFile) => void;
}

export class LoadCancelled extends Error {
  override name = 'LoadCancelled';
}

/** A folder, a zip, a single file, or several single files read together as one node. */
export async function loadBundle(location: string | readonly string[], opts: LoadOptions = {}): Promise<NodeModel> {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const source = typeof location === 'string' ? await openBundle(location, limits) : await openFiles(location, limits);
  return loadSource(source, opts);
}

/** Texts held in memory (standard input, pasted outputs), each read as a file of its own. */
export async function loadTexts(items: readonly { name: string; bytes: Uint8Array }[], location: string, opts: LoadOptions = {}): Promise<NodeModel> {
  return loadSource(textSource(items, location, opts.limits ?? DEFAULT_LIMITS), opts);
}

/** What a node of the app was read from: a bundle on disk, pasted texts, or both (services/bundle/origin.ts). */
export async function loadOrigin(origin: BundleOrigin, opts: LoadOptions = {}): Promise<NodeModel> {
  return loadSource(await openOrigin(origin, opts.limits ?? DEFAULT_LIMITS), opts);
}

async function loadSource(source: BundleSource, opts: LoadOptions): Promise<NodeModel> {
  const location = source.location;
  try {
    const { root, candidates } = source.kind === 'file' ? { root: '', candidates: [] } : findBundleRoot(source.entries.map((e) => e.path));
    const inRoot: BundleEntry[] = source.entries.filter((e) => e.path.startsWith(root));
    const outside = source.entries.filter((e) => !e.path.startsWith(root));
    const bytesTotal = inRoot.reduce((n, e) => n + e.size, 0);
    const progress: LoadProgress = { phase: 'listing', filesDone: 0, filesTotal: inRoot.length, bytesDone: 0, bytesTotal };
    opts.onProgress?.({ ...progress });
    const parsed: (ParsedFile | undefined)[] = new Array(inRoot.length);
    progress.phase = 'reading';
    const pool = new ParsePool();
    const unreadable = (name: string, size: number, e: unknown): ParsedFile => ({
      name, size, kind: 'unknown', encoding: 'not-read', content: { type: 'none' },
      issues: [{ file: name, line: 0, severity: 'error', message: `could not be read: ${e instanceof Error ? e.message : String(e)}` }],
    });
    const done = (entry: BundleEntry) => {
      progress.filesDone++;
      progress.bytesDone += entry.size;
      opts.onProgress?.({ ...progress });
    };
    const big: Promise<void>[] = [];
    try {
      // Big files first, so the worker starts on them while the small ones are read here.
      const big_ = opts.bigFileBytes ?? BIG_FILE;
      const order = inRoot.map((e, i) => i).sort((a, b) => Number(inRoot[b].size >= big_) - Number(inRoot[a].size >= big_));
      for (const i of order) {
        if (opts.signal?.aborted) throw new LoadCancelled('loading was cancelled');
        const entry = inRoot[i];
        const name = entry.path.slice(root.length);
        progress.file = name;
        opts.onProgress?.({ ...progress });
        const reused = opts.reuse?.get(name);
        if (reused && reused.size === entry.size) {
          parsed[i] = reused;
          done(entry);
          continue;
        }
        if (entry.size >= big_) {
          const job = (async () => {
            // The worker takes the bytes over (transferred); a text held in memory is kept by its
            // owner for the next read (excerpts, joining one more paste), so it gets a copy.
            const src = entry.diskPath ? { path: entry.diskPath } : { bytes: entry.inMemory ? (await entry.read()).slice() : await entry.read() };
            parsed[i] = await pool.parse(name, src);
            opts.onBigParsed?.(parsed[i]!);
          })().catch((e) => {
            parsed[i] = unreadable(name, entry.size, e);
          }).then(() => done(entry));
          big.push(job);
          continue;
        }
        try {
          parsed[i] = parseBundleFile(name, await entry.read());
        } catch (e) {
          parsed[i] = unreadable(name, entry.size, e);
        }
        done(entry);
        // Yield so progress events and cancellation get a turn between files.
        await new Promise((r) => setImmediate(r));
      }
      await Promise.all(big);
    } finally {
      await pool.close();
    }
    if (opts.signal?.aborted) throw new LoadCancelled('loading was cancelled');
    progress.phase = 'assembling';
    progress.file = undefined;
    opts.onProgress?.({ ...progress });
    const model = assembleModel(parsed as ParsedFile[], { location, kind: source.kind, root });
    if (candidates.length > 1) {
      model.files.push({
        name: '(bundle)', size: 0, kind: 'known', encoding: 'not-read', used: false,
        issues: [{ file: '(bundle)', line: 0, severity: 'warning', message: `the archive holds several bundles (${candidates.map((c) => c || '/').join(', ')}); showing ${root || '/'}` }],
      });
    }
    for (const e of outside) model.files.push({ name: e.path, size: e.size, kind: 'unknown', encoding: 'not-read', used: false, note: `outside the bundle folder ${root}`, issues: [] });
    progress.phase = 'done';
    opts.onProgress?.({ ...progress });
    return model;
  } finally {
    await source.close();
  }
}
