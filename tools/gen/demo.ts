// The demo bundles shipped in assets/demo/ (rewritten by `npm run gen -- --demo`).

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildNode } from './build.ts';
import { writeBundle, type WriteOptions } from './write.ts';
import type { NodeSpec } from './types.ts';

export const DEMOS: { dir: string; spec: NodeSpec; opts: WriteOptions }[] = [
  {
    // The default demo has something to find: two faults of the Windows networking troubleshooting
    // guide's kinds — an OutBoundNAT ExceptionList typo (`10.244.0.0/0` for the cluster /16: pods reach
    // the outside with their own address) and an endpoint whose vNIC never arrived (the async vNIC case
    // of the CNI CHECK discussion). The overlay demo stays healthy.
    dir: 'l2bridge-node',
    spec: { seed: 20240514, hostName: 'win-fl-l2b-01', network: 'l2bridge', schema: 2, pods: 8, services: 10, remoteNodes: 2, vfpGeneration: 'get-rule-counter', windowsBuild: '10.0.20348.2340', faults: ['exception-list-typo', 'endpoint-without-vnic'] },
    opts: { encoding: 'utf16le-bom', eol: 'crlf', extras: true },
  },
  {
    dir: 'overlay-node',
    spec: { seed: 20190515, hostName: 'win-24elfep18d9', network: 'overlay', schema: 1, pods: 6, services: 8, remoteNodes: 2, vfpGeneration: 'list-rule', windowsBuild: '10.0.17763.5830' },
    opts: { encoding: 'utf16le-bom', eol: 'crlf', extras: true },
  },
];

export async function writeDemos(assetsDemoDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const d of DEMOS) {
    const dir = join(assetsDemoDir, d.dir);
    await rm(dir, { recursive: true, force: true });
    await writeBundle(buildNode(d.spec), dir, d.opts);
    out.push(dir);
  }
  return out;
}
