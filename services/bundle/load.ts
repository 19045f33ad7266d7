// Loads a bundle from disk into a NodeModel: open (folder/zip/file), find the bundle root, read and
// parse each file, assemble. Reports progress and honours cancellation between files.
//
// Bounded on any input: a file is read only when a parser reads it (a file hnsight only lists is
// classified from its first 64 KiB, the same head parseBundleFile classifies from, and inflated no
// further); every read is charged to the per-file and per-bundle budgets before it starts, and a file
// over budget is named with the reason while the rest loads; big files are parsed one at a time in
// the worker while the small ones are parsed here, so at most one big file and one small file are in
// flight at once.
import { openBundle, openFiles, textSource, type BundleEntry, type BundleSource } from './source.ts';
import { formatBytes, MAX_TEXT_BYTES, OverBudget, type BundleLimits } from './limits.ts';
import { ReadBudget } from './read-budget.ts';
import { holdForNode } from './memory-budget.ts';
import { findBundleRoot } from '../../parsers/bundle/root.ts';
import { parseBundleFile } from '../../parsers/bundle/parse-file.ts';
import { type ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import { kindFromName, type FileKind } from '../../parsers/bundle/classify.ts';
import { assembleModel } from '../../parsers/model/assemble.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import { ParsePool } from './parse-pool.ts';
import { removeTemp, writeTemp } from './temp-files.ts';
import { openOrigin, type BundleOrigin } from './origin.ts';
import { attachLines, countLines, type LineJob } from './line-tables.ts';

/** Files at least this big are parsed in the worker thread while the main thread does the rest. */
const BIG_FILE = 16 * 1024 * 1024;
/** What parseBundleFile classifies a file from when its name does not say what it is. */
const HEAD_BYTES = 64 * 1024;
/** Read first, so a bundle whose budget runs out still has its node: the files the model is built from. */
export const CORE_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['network', 'networkdetailed', 'endpoint', 'namespaces', 'policy', 'hnsdiag', 'ip', 'routes', 'ports', 'vfp']);

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
  /** The budgets (default: HNSIGHT_MAX_FILE_BYTES / HNSIGHT_MAX_BUNDLE_BYTES, else DEFAULT_LIMITS). */
  limits?: BundleLimits;
  /** Files at least this big go to the worker thread (default 16 MiB). */
  bigFileBytes?: number;
  /**
   * Files already parsed, by name in the bundle: taken as they are instead of read again (the findings
   * worker rebuilds a node this way, sharing the VFP dump's memory with the node it was loaded for).
   */
  reuse?: ReadonlyMap<string, ParsedFile>;
  /** Called with every file parsed in the worker thread (the big ones), before the node is assembled. */
  onBigParsed?: (parsed: ParsedFile) => void;
  /**
   * Called with every file parsed whole on this thread (the small ones), as it is parsed, before the
   * node is assembled from it (the backend packs it for its workers: services/backend/packed-files.ts).
   */
  onParsed?: (parsed: ParsedFile) => void;
}

export class LoadCancelled extends Error {
  override name = 'LoadCancelled';
}

/** 0: the node's own files by name, 1: other files named as something hnsight reads, 2: the rest. */
function tier(name: string): number {
  const k = kindFromName(name);
  if (k && CORE_KINDS.has(k)) return 0;
  return k && k !== 'known' ? 1 : 2;
}

function notRead(name: string, size: number, message: string): ParsedFile {
  return { name, size, kind: kindFromName(name) ?? 'unknown', encoding: 'not-read', content: { type: 'none' }, issues: [{ file: name, line: 0, severity: 'error', message }] };
}

function unreadable(name: string, size: number, e: unknown): ParsedFile {
  if (e instanceof OverBudget) return notRead(name, size, e.message);
  return notRead(name, size, `could not be read: ${e instanceof Error ? e.message : String(e)}`);
}

/** Whether a file parsed from its head alone needs the rest: only when its parser reads the content. */
function needsWhole(p: ParsedFile): boolean {
  return !(p.content.type === 'none' && (p.kind === 'unknown' || p.kind === 'known'));
}

/** A folder, a zip, a single file, or several single files read together as one node. */
export async function loadBundle(location: string | readonly string[], opts: LoadOptions = {}): Promise<NodeModel> {
  const source = typeof location === 'string' ? await openBundle(location, opts.limits) : await openFiles(location, opts.limits);
  return loadSource(source, opts);
}

/** Texts held in memory (standard input, pasted outputs), each read as a file of its own. */
export async function loadTexts(items: readonly { name: string; bytes: Uint8Array }[], location: string, opts: LoadOptions = {}): Promise<NodeModel> {
  return loadSource(textSource(items, location, opts.limits), opts);
}

/** What a node of the app was read from: a bundle on disk, pasted texts, or both (services/bundle/origin.ts). */
export async function loadOrigin(origin: BundleOrigin, opts: LoadOptions = {}): Promise<NodeModel> {
  return loadSource(await openOrigin(origin, opts.limits), opts);
}

async function loadSource(source: BundleSource, opts: LoadOptions): Promise<NodeModel> {
  const location = source.location;
  // What this load read, charged to the process's budget too: the node holds it until it is closed.
  const budget = new ReadBudget(source.limits, undefined, source.kind === 'zip' ? location : '');
  // Temporary files big zip entries were inflated to: the node reads its VFP dumps from them until it is closed.
  const temps: string[] = [];
  let model: NodeModel | undefined;
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
    const bigBytes = opts.bigFileBytes ?? BIG_FILE;
    const done = (entry: BundleEntry) => {
      progress.filesDone++;
      progress.bytesDone += entry.size;
      opts.onProgress?.({ ...progress });
    };
    const cancelled = () => {
      if (opts.signal?.aborted) throw new LoadCancelled('loading was cancelled');
    };
    // Big files go through the worker one after the other: one big file in memory at a time.
    let bigChain: Promise<void> = Promise.resolve();
    // VFP dumps on disk the worker scans without their line table: the main thread counts it (line-tables.ts).
    const lineJobs = new Map<number, LineJob>();
    let stopped = false;
    const parseBig = (i: number, entry: BundleEntry, name: string, vfp: boolean) => {
      bigChain = bigChain.then(async () => {
        if (stopped) return;
        try {
          cancelled();
          // The worker takes the bytes over (transferred); a text held in memory is kept by its
          // owner for the next read (excerpts, joining one more paste), so it gets a copy.
          let src: { path: string; maxBytes: number; countLines?: boolean } | { bytes: Uint8Array };
          let temp: string | undefined;
          if (entry.diskPath) src = { path: entry.diskPath, maxBytes: entry.size };
          else if (entry.extract && !entry.inMemory) {
            // A big zip entry is inflated once, to a temporary file, and read like a folder's file.
            const t = await writeTemp(name, entry.size, (fd) => entry.extract!(fd, entry.size));
            temps.push((temp = t.path));
            src = { path: t.path, maxBytes: t.bytes };
          } else src = { bytes: entry.inMemory ? (await entry.read(entry.size)).slice() : await entry.read(entry.size) };
          if ('path' in src && vfp) {
            lineJobs.set(i, { path: src.path, size: src.maxBytes, name });
            src.countLines = false;
          }
          parsed[i] = await pool.parse(name, src);
          const c = parsed[i]!.content;
          // The line table the main thread counted (or counts now, when the worker came first).
          if (c.type === 'vfp' && lineJobs.has(i)) {
            countLines(lineJobs.get(i)!);
            attachLines(c.index, c.bytes, lineJobs.get(i));
          }
          // Only a VFP dump read on demand needs its temporary file after the parse.
          if (temp && !(c.type === 'vfp' && !c.bytes.whole)) {
            removeTemp(temp);
            temps.splice(temps.indexOf(temp), 1);
          }
          opts.onBigParsed?.(parsed[i]!);
        } catch (e) {
          if (e instanceof LoadCancelled) throw e;
          parsed[i] = unreadable(name, entry.size, e);
        }
        done(entry);
      });
    };
    try {
      // Core files first (the budget may run out), big ones first within a tier (the worker starts on them).
      // The order does not depend on where a file is parsed (bigFileBytes), so the findings worker, which
      // parses everything itself, charges the budgets in the order the load did and reads the same node.
      const isBig = (e: BundleEntry) => e.size >= bigBytes;
      const order = inRoot.map((e, i) => ({ i, t: tier(e.path.slice(root.length)), big: e.size >= BIG_FILE ? 0 : 1 })).sort((a, b) => a.t - b.t || a.big - b.big || a.i - b.i).map((x) => x.i);
      for (const i of order) {
        cancelled();
        const entry = inRoot[i];
        const name = entry.path.slice(root.length);
        progress.file = name;
        opts.onProgress?.({ ...progress });
        try {
          let charged = 0;
          let kind = kindFromName(name);
          if (tier(name) === 2 && entry.size > HEAD_BYTES) {
            // Named as nothing hnsight reads: classify from the head, inflate no further unless it is something after all.
            budget.charge(name, HEAD_BYTES, HEAD_BYTES);
            charged = HEAD_BYTES;
            const fromHead = parseBundleFile(name, await entry.readHead(HEAD_BYTES));
            if (!needsWhole(fromHead)) {
              // Only the head was read: "empty" would be said of a file that is not.
              const issues = fromHead.issues.map((x) => (x.line === 0 && x.message.endsWith(' is empty: nothing to read') ? { ...x, message: `${name}: its first ${formatBytes(HEAD_BYTES)} hold no text, so the rest (${formatBytes(entry.size)} in all) was not read` } : x));
              parsed[i] = { ...fromHead, size: entry.size, issues };
              done(entry);
              continue;
            }
            kind = fromHead.kind;
          }
          // Text is decoded into one string: past the longest one V8 makes it cannot be read, and the
          // bytes and their string would be held twice. Only the VFP dump is kept as bytes. (A file over
          // the per-file budget is named by that budget, below.)
          // A bomb is named as one, whatever else it passes.
          budget.checkInflation(name, entry.size, entry.compressedSize);
          const maxText = source.limits.maxTextBytes ?? MAX_TEXT_BYTES;
          if (kind !== 'vfp' && entry.size > maxText && entry.size <= source.limits.maxEntryBytes) throw new OverBudget(name, entry.size, maxText, 'text');
          // A VFP dump on disk, or a big zip entry inflated to a temporary file, is read on demand, not held.
          if (kind === 'vfp' && entry.size >= BIG_FILE && !entry.inMemory && (entry.diskPath || entry.extract)) budget.chargeIndexed(name, entry.size, entry.compressedSize);
          else budget.charge(name, entry.size - charged, entry.size, entry.compressedSize);
          // Charged like any file, in the same order, so a node rebuilt from reused files meets its budgets as the first load did.
          const reused = opts.reuse?.get(name);
          if (reused && reused.size === entry.size) {
            parsed[i] = reused;
            done(entry);
            continue;
          }
          if (isBig(entry)) {
            parseBig(i, entry, name, kind === 'vfp');
            continue;
          }
          parsed[i] = parseBundleFile(name, await entry.read(entry.size));
          opts.onParsed?.(parsed[i]!);
        } catch (e) {
          parsed[i] = unreadable(name, entry.size, e);
        }
        done(entry);
        // Yield so progress events and cancellation get a turn between files.
        await new Promise((r) => setImmediate(r));
      }
      // The small files are read: count the line tables of the dumps the worker is scanning meanwhile.
      for (const job of lineJobs.values()) {
        cancelled();
        countLines(job);
      }
      await bigChain;
    } finally {
      // On a failure or cancellation the worker is stopped at once, not waited for.
      stopped = true;
      await pool.close();
      await bigChain.catch(() => undefined);
    }
    cancelled();
    progress.phase = 'assembling';
    progress.file = undefined;
    opts.onProgress?.({ ...progress });
    model = assembleModel(parsed as ParsedFile[], { location, kind: source.kind, root });
    if (candidates.length > 1) {
      model.files.push({
        name: '(bundle)', size: 0, kind: 'known', encoding: 'not-read', used: false,
        issues: [{ file: '(bundle)', line: 0, severity: 'warning', message: `the archive holds several bundles (${candidates.map((c) => c || '/').join(', ')}); showing ${root || '/'}` }],
      });
    }
    for (const e of outside) model.files.push({ name: e.path, size: e.size, kind: 'unknown', encoding: 'not-read', used: false, note: `outside the bundle folder ${root}`, issues: [] });
    progress.phase = 'done';
    opts.onProgress?.({ ...progress });
    const held = [...temps];
    holdForNode(model, budget.bytesHeld, budget.memory, held.length ? () => held.forEach(removeTemp) : undefined);
    return model;
  } finally {
    // A load that failed or was cancelled holds nothing.
    if (!model) {
      budget.memory.give(budget.bytesHeld);
      temps.forEach(removeTemp);
    }
    await source.close();
  }
}
