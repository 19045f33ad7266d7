// The node of an open bundle, rebuilt inside a worker thread: the one way every worker (findings,
// reachability, Services, the reachability comparison) gets its node, so a change to the loader or to
// what crosses the thread is made once (#24: the Services worker once missed a revival and its walks
// failed with 'src.read is not a function').
//
// A NodeModel does not cross a thread (its VFP store and evidence text are closures, its source lines
// lazy getters; findings-runner.ts measured why rebuilding beats cloning its plain parts), so the
// worker reads the small files again and takes the VFP dumps as the first load parsed them: their
// bytes are a file or shared memory, their index typed arrays in shared memory (reuseForWorkers). Structured cloning keeps their data
// but not their methods, so both are made whole again here before the loader sees them.
import { loadOrigin } from '../bundle/load.ts';
import { reviveVfpContent, shareableBytes } from '../bundle/file-bytes.ts';
import { shareIndexBuffers } from '../../parsers/vfp/scan-index.ts';
import type { BundleOrigin } from '../bundle/origin.ts';
import type { ParsedFile } from '../../parsers/bundle/parsed-file.ts';
import type { NodeModel } from '../../parsers/model/types.ts';

export interface NodeRevival {
  /** What the node was read from (a bundle on disk, pasted texts, or both). */
  origin: BundleOrigin;
  /** Files the first load parsed, as they arrived through postMessage (VFP dumps whose bytes are shared). */
  reuse?: readonly ParsedFile[];
}

/**
 * What of a load the workers take over, made ready to cross threads without a copy (on the thread that
 * holds the node, once per node): the VFP dumps whose bytes a worker can read as they are (a file, or
 * shared memory), their index's arrays moved into shared memory, so every worker reads the node's own
 * index instead of a clone of it (issue #27 point 2). Other files are parsed again in the worker.
 */
export function reuseForWorkers(files: readonly ParsedFile[]): ParsedFile[] {
  const out = files.filter((p) => p.content.type === 'vfp' && shareableBytes(p.content.bytes));
  for (const p of out) if (p.content.type === 'vfp') shareIndexBuffers(p.content.index);
  return out;
}

/** The parsed files of a message made usable again: a VFP dump's byte source and index get their methods back. */
export function revivedFiles(files: readonly ParsedFile[]): Map<string, ParsedFile> {
  const out = new Map<string, ParsedFile>();
  for (const p of files) {
    if (p.content.type === 'vfp') reviveVfpContent(p.content);
    out.set(p.name, p);
  }
  return out;
}

/**
 * The node, rebuilt in this thread. Every file is parsed here, none handed to a parse worker: this
 * thread is the background already.
 */
export function reviveNode(r: NodeRevival): Promise<NodeModel> {
  return loadOrigin(r.origin, { reuse: revivedFiles(r.reuse ?? []), bigFileBytes: Number.POSITIVE_INFINITY });
}
