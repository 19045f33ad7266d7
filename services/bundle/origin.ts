// What a node was read from: a bundle the user opened (folder, zip or file), texts the user pasted,
// or both — pastes added to an open bundle. The backend keeps the origin of every open node so it
// can read the same files again (evidence excerpts, the notes' identity) and join one more paste
// with the ones before. Pasted texts live only in memory: nothing here opens a path the user did
// not open.
import { findBundleRoot } from '../../parsers/bundle/root.ts';
import { BundleOpenError, openBundle, textSource, uniqueName, type BundleSource, type SourceLimits } from './source.ts';

export interface PastedText {
  /** Its name in the bundle ("paste 1.txt", or one the user gave). */
  name: string;
  bytes: Uint8Array;
}

export interface BundleOrigin {
  /** What the user opened, when the node started from a bundle on disk. */
  path?: string;
  /** Texts pasted, in the order they were added. */
  pastes: readonly PastedText[];
}

export const diskOrigin = (path: string): BundleOrigin => ({ path, pastes: [] });

/** How the node's origin is named to the user (the summary's location). */
export function originLocation(o: BundleOrigin): string {
  const n = o.pastes.length;
  if (!o.path) return n === 1 ? 'pasted text' : `${n} pasted texts`;
  if (!n) return o.path;
  return `${o.path} + ${n === 1 ? 'a pasted text' : `${n} pasted texts`}`;
}

/**
 * The origin as one bundle source. Pastes alone are a bundle of single files; pastes added to a bundle
 * on disk become files of its bundle folder (renamed `… (2)` when a file there has their name).
 */
export async function openOrigin(o: BundleOrigin, limits?: SourceLimits): Promise<BundleSource> {
  if (!o.pastes.length) {
    if (!o.path) throw new BundleOpenError('nothing to open: no bundle and no pasted text');
    return openBundle(o.path, limits);
  }
  if (!o.path) return textSource(o.pastes, originLocation(o), limits);
  const disk = await openBundle(o.path, limits);
  const texts = textSource(o.pastes, originLocation(o), disk.limits);
  try {
    const root = disk.kind === 'file' ? '' : findBundleRoot(disk.entries.map((e) => e.path)).root;
    const taken = new Set(disk.entries.filter((e) => e.path.startsWith(root)).map((e) => e.path.slice(root.length).toLowerCase()));
    const added = texts.entries.map((e) => ({ ...e, path: root + uniqueName(e.path, taken) }));
    return { kind: disk.kind, location: originLocation(o), limits: disk.limits, entries: [...disk.entries, ...added], close: () => disk.close() };
  } catch (e) {
    await disk.close();
    throw e;
  }
}
