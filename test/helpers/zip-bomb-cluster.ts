// The cluster of zip bombs of issue 27: each node's bundle zipped as AKS writes it (flat), with three of
// its files replaced by entries of zeros that deflate ~1000:1 (a 1 GiB entry is ~1 MB in the zip). The
// bench uses 1 GiB entries (four ~3 MB zips, 12 GiB inflated); the unit test a few MiB each.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { zeroZip } from './zip.ts';

/** Files a loader reads as text (a VFP dump, hnsdiag, a log), each replaced by zeros. */
export const BOMB_ENTRIES = ['vfpOutput.txt', 'hnsdiag.txt', 'kubelet.log'] as const;

function filesOf(dir: string, prefix = ''): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesOf(p, `${prefix}${e}/`));
    else out.push([prefix + e, new Uint8Array(readFileSync(p))]);
  }
  return out;
}

/**
 * Writes `<node>.zip` into `outDir` for each node folder of `nodesDir` (a generated cluster): its files,
 * with BOMB_ENTRIES as `zeroBytes` zeros each. Returns the zips' paths.
 */
export function writeBombCluster(nodesDir: string, outDir: string, zeroBytes: number): string[] {
  mkdirSync(outDir, { recursive: true });
  const zips: string[] = [];
  for (const node of readdirSync(nodesDir).sort()) {
    const dir = path.join(nodesDir, node);
    if (!statSync(dir).isDirectory()) continue;
    const entries: Record<string, number | Uint8Array> = {};
    for (const [name, bytes] of filesOf(dir)) if (!(BOMB_ENTRIES as readonly string[]).includes(name)) entries[name] = bytes;
    for (const name of BOMB_ENTRIES) entries[name] = zeroBytes;
    const zip = path.join(outDir, `${node}.zip`);
    writeFileSync(zip, zeroZip(entries));
    zips.push(zip);
  }
  return zips;
}
