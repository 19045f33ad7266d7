// Loads a bundle from disk into a NodeModel: open (folder/zip/file), find the bundle root, read and
// parse each file, assemble. Reports progress and honours cancellation between files.
import { openBundle, type BundleEntry, type SourceLimits, DEFAULT_LIMITS } from './source.ts';
import { findBundleRoot } from '../../../parsers/bundle/root.ts';
import { parseBundleFile, type ParsedFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

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
}

export class LoadCancelled extends Error {
  override name = 'LoadCancelled';
}

export async function loadBundle(location: string, opts: LoadOptions = {}): Promise<NodeModel> {
  const source = await openBundle(location, opts.limits ?? DEFAULT_LIMITS);
  try {
    const { root, candidates } = source.kind === 'file' ? { root: '', candidates: [] } : findBundleRoot(source.entries.map((e) => e.path));
    const inRoot: BundleEntry[] = source.entries.filter((e) => e.path.startsWith(root));
    const outside = source.entries.filter((e) => !e.path.startsWith(root));
    const bytesTotal = inRoot.reduce((n, e) => n + e.size, 0);
    const progress: LoadProgress = { phase: 'listing', filesDone: 0, filesTotal: inRoot.length, bytesDone: 0, bytesTotal };
    opts.onProgress?.({ ...progress });
    const parsed: ParsedFile[] = [];
    progress.phase = 'reading';
    for (const entry of inRoot) {
      if (opts.signal?.aborted) throw new LoadCancelled('loading was cancelled');
      const name = entry.path.slice(root.length);
      progress.file = name;
      opts.onProgress?.({ ...progress });
      let bytes: Uint8Array;
      try {
        bytes = await entry.read();
      } catch (e) {
        parsed.push({ name, size: entry.size, kind: 'unknown', encoding: 'not-read', issues: [{ file: name, line: 0, severity: 'error', message: `could not be read: ${e instanceof Error ? e.message : String(e)}` }], content: { type: 'none' } });
        continue;
      }
      parsed.push(parseBundleFile(name, bytes));
      progress.filesDone++;
      progress.bytesDone += entry.size;
      // Yield so progress events and cancellation get a turn between big files.
      await new Promise((r) => setImmediate(r));
    }
    progress.phase = 'assembling';
    progress.file = undefined;
    opts.onProgress?.({ ...progress });
    const model = assembleModel(parsed, { location, kind: source.kind, root });
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
