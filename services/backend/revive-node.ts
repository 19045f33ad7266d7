// The node of an open bundle, rebuilt inside a worker thread: the one way every worker (findings,
// reachability, Services, the reachability comparison) gets its node, so a change to the loader or to
// what crosses the thread is made once (#24: the Services worker once missed a revival and its walks
// failed with 'src.read is not a function').
//
// A NodeModel does not cross a thread (its VFP store and evidence text are closures, its source lines
// lazy getters; findings-runner.ts measured why rebuilding beats cloning its plain parts), so the
// worker takes what the first load parsed: the small files' records, serialized once into shared
// memory as the load parsed them (packed-files.ts), and the VFP dumps, their bytes a file or shared
// memory, their index's typed arrays in shared memory (reuseForWorkers). Structured cloning keeps a
// dump's data but not its methods, so both kinds are made whole again here before the loader sees them;
// the loader parses again only what was not handed over (packed-files.ts says which).
import { loadOrigin } from '../bundle/load.ts';
import { reviveVfpContent, shareableBytes } from '../bundle/file-bytes.ts';
import { shareIndexBuffers } from '../../parsers/vfp/scan-index.ts';
import type { BundleOrigin } from '../bundle/origin.ts';
import { isPacked, packParsedFile, unpackParsedFile, type PackedFile } from './packed-files.ts';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import type { NodeModel } from '../../parsers/model/types.ts';

export interface NodeRevival {
  /** What the node was read from (a bundle on disk, pasted texts, or both). */
  origin: BundleOrigin;
  /** Files the first load parsed, as they arrived through postMessage (VFP dumps whose bytes are shared, small files' packed records). */
  reuse?: readonly HandedFile[];
}

/** What a worker takes over from the load: a VFP dump as it is, or a small file's packed record. */
export type HandedFile = ParsedFile | PackedFile;

/**
 * What a load hands its node's workers, gathered as it parses (load-jobs.ts gives these to loadOrigin):
 * every file the load parsed is packed as soon as it is parsed, before the node is assembled from it,
 * when it is plain data (packed-files.ts); a VFP dump parsed by the parse worker is kept as it is (its
 * bytes may be shared: reuseForWorkers). The rest is parsed again by each worker.
 */
export function collectHandOver(): { files: HandedFile[]; onParsed: (p: ParsedFile) => void; onBigParsed: (p: ParsedFile) => void } {
  const files: HandedFile[] = [];
  const onParsed = (p: ParsedFile) => {
    const packed = packParsedFile(p);
    if (packed) files.push(packed);
  };
  const onBigParsed = (p: ParsedFile) => {
    if (p.content.type === 'vfp') files.push(p);
    else onParsed(p);
  };
  return { files, onParsed, onBigParsed };
}

/**
 * What of a load the workers take over, made ready to cross threads without a copy (on the thread that
 * holds the node, once per node): the small files' packed records (shared memory already), and the VFP
 * dumps whose bytes a worker can read as they are (a file, or shared memory), their index's arrays
 * moved into shared memory, so every worker reads the node's own index instead of a clone of it (issue
 * #27 point 2). Other files are parsed again in the worker.
 */
export function reuseForWorkers(files: readonly HandedFile[]): HandedFile[] {
  const out = files.filter((p) => isPacked(p) || (p.content.type === 'vfp' && shareableBytes(p.content.bytes)));
  for (const p of out) if (!isPacked(p) && p.content.type === 'vfp') shareIndexBuffers(p.content.index);
  return out;
}

/**
 * The files of a message made usable again: a packed record deserialized, a VFP dump's byte source and
 * index given their methods back.
 */
export function revivedFiles(files: readonly HandedFile[]): Map<string, ParsedFile> {
  const out = new Map<string, ParsedFile>();
  for (const f of files) {
    const p = isPacked(f) ? unpackParsedFile(f) : f;
    if (p.content.type === 'vfp') reviveVfpContent(p.content);
    out.set(p.name, p);
  }
  return out;
}

/**
 * The node, rebuilt in this thread. What was not handed over is parsed here, none of it handed to a
 * parse worker: this thread is the background already.
 */
export function reviveNode(r: NodeRevival): Promise<NodeModel> {
  return loadOrigin(r.origin, { reuse: revivedFiles(r.reuse ?? []), bigFileBytes: Number.POSITIVE_INFINITY });
}
