// Finds the bundles in a folder of bundles: each subfolder that holds CollectLogs files (at its top or
// one level down, the way a zipped output folder unpacks) and each zip beside them, sorted by name.
// A folder that holds CollectLogs files itself is one bundle, not a folder of them. Links are not
// followed (a bundle is evidence; a link could point anywhere); everything passed over is said.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CORE_FILE } from '../../parsers/bundle/root.ts';
import { BundleOpenError, looksLikeZip } from '../bundle/source.ts';

export interface FoundBundle {
  path: string;
  /** The name in the folder (a host's folder, `<host>-<time>_logs.zip`). */
  name: string;
  kind: 'folder' | 'zip';
}

export interface Discovery {
  dir: string;
  /** The folder is a bundle itself (CollectLogs files at its top). */
  isBundle: boolean;
  bundles: FoundBundle[];
  skipped: { name: string; reason: string }[];
}

/** More bundles than this in one folder are refused (a wrong folder, not a fleet). */
export const MAX_BUNDLES = 10_000;

async function holdsCoreFile(dir: string, depth: number): Promise<boolean> {
  let list;
  try {
    list = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (list.some((e) => e.isFile() && CORE_FILE.test(e.name))) return true;
  if (depth <= 0) return false;
  for (const e of list.filter((x) => x.isDirectory()).slice(0, 20)) if (await holdsCoreFile(path.join(dir, e.name), depth - 1)) return true;
  return false;
}

export async function discoverBundles(dir: string): Promise<Discovery> {
  let list;
  try {
    list = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BundleOpenError(code === 'ENOENT' ? `no such folder: ${dir}` : code === 'ENOTDIR' ? `${dir} is not a folder` : `cannot read ${dir}: ${code ?? String(e)}`);
  }
  const out: Discovery = { dir, isBundle: list.some((e) => e.isFile() && CORE_FILE.test(e.name)), bundles: [], skipped: [] };
  if (out.isBundle) return out;
  const names = list.map((e) => e.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const byName = new Map(list.map((e) => [e.name, e]));
  for (const name of names) {
    const e = byName.get(name)!;
    const p = path.join(dir, name);
    if (name.startsWith('.')) {
      out.skipped.push({ name, reason: 'hidden' });
      continue;
    }
    if (e.isSymbolicLink()) {
      out.skipped.push({ name, reason: 'a link: not followed' });
      continue;
    }
    if (e.isDirectory()) {
      if (await holdsCoreFile(p, 1)) out.bundles.push({ path: p, name, kind: 'folder' });
      else out.skipped.push({ name, reason: 'holds no CollectLogs file (network.txt, endpoint.txt, vfpOutput.txt, …)' });
    } else if (e.isFile()) {
      if (/\.zip$/i.test(name) && (await looksLikeZip(p).catch(() => false))) out.bundles.push({ path: p, name, kind: 'zip' });
      else out.skipped.push({ name, reason: /\.zip$/i.test(name) ? 'named .zip but not a zip' : 'not a bundle folder or zip' });
    } else out.skipped.push({ name, reason: 'not a file or folder' });
    if (out.bundles.length > MAX_BUNDLES) throw new BundleOpenError(`${dir} holds more than ${MAX_BUNDLES} bundles; give a folder of one cluster's nodes`);
  }
  return out;
}

/**
 * What the command line names: several bundles (each argument one), or one folder of two or more
 * bundles. A single bundle folder or zip — also one whose files lie one folder down — answers
 * `undefined` (not a cluster).
 */
export async function clusterTargets(args: readonly string[]): Promise<{ bundles: FoundBundle[]; skipped: Discovery['skipped'] } | undefined> {
  if (args.length > 1) return { bundles: args.map((a) => ({ path: a, name: path.basename(a), kind: /\.zip$/i.test(a) ? 'zip' : 'folder' })), skipped: [] };
  const [one] = args;
  let st;
  try {
    st = await fs.stat(one);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BundleOpenError(code === 'ENOENT' ? `no such file or folder: ${one}` : `cannot open ${one}: ${code ?? String(e)}`);
  }
  if (!st.isDirectory()) return undefined;
  const d = await discoverBundles(one);
  if (d.isBundle || d.bundles.length < 2) return undefined;
  return { bundles: d.bundles, skipped: d.skipped };
}
