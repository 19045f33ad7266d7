// The identity of a bundle for its notes: SHA-256 over the sorted list of its files (bundle-relative
// name and size) and the first and last 64 KiB of each core CollectLogs file. The location is not
// part of it, so a bundle moved or re-zipped with the same files keeps its notes; a bundle collected
// again (other sizes or contents) gets its own.
import { createHash } from 'node:crypto';
import { openBundle, OverBudget, type BundleEntry, type BundleSource } from '../bundle/source.ts';
import { findBundleRoot } from '../../parsers/bundle/root.ts';

const CORE = /^(network|endpoint|policy|ip|routes|ports|vfpoutput|hnsdiag|namespaces)\.txt$/i;
const EDGE = 64 * 1024;

/**
 * The first and last 64 KiB, streamed (a zip entry is never held whole). A file over the per-file
 * budget gives its head only: it is not read when the bundle loads either.
 */
async function edges(e: BundleEntry): Promise<Uint8Array[]> {
  try {
    return await e.readEdges(EDGE);
  } catch (err) {
    if (err instanceof OverBudget) return [await e.readHead(EDGE)];
    throw err;
  }
}

export async function bundleHash(location: string): Promise<string> {
  return sourceHash(() => openBundle(location));
}

/**
 * The same identity for any bundle source. Texts held in memory (pastes) are hashed like core files,
 * whatever their name: their content is all there is to tell them apart.
 */
export async function sourceHash(open: () => Promise<BundleSource>): Promise<string> {
  const src = await open();
  try {
    const { root } = src.kind === 'file' ? { root: '' } : findBundleRoot(src.entries.map((e) => e.path));
    const entries = src.entries.filter((e) => e.path.startsWith(root)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const h = createHash('sha256');
    for (const e of entries) h.update(`${e.path.slice(root.length)}\0${e.size}\n`);
    for (const e of entries) {
      const base = e.path.slice(e.path.lastIndexOf('/') + 1);
      if (!CORE.test(base) && src.kind !== 'file' && !e.inMemory) continue;
      h.update(`\0${e.path.slice(root.length)}\0`);
      for (const part of await edges(e)) h.update(part);
    }
    return `sha256:${h.digest('hex')}`;
  } finally {
    await src.close();
  }
}
