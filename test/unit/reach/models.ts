// The nodes the reach properties run on: every generated platform, the demos, and every bundle under
// test/fixtures/foreign, foreign-faults and the whole foreign-<platform> bundles (hand-written from primary
// sources, see their READMEs).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS } from '../../../tools/gen/index.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { reachFrom, type ReachFrom } from '../../../analysis/reach/index.ts';
import { sharedResult } from '../../support/shared-results.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Named {
  name: string;
  load: () => Promise<NodeModel>;
  /** Generated on an l2bridge platform (issue #23 point 1 concerns those). */
  l2bridge?: boolean;
}

const dirs = (d: string) => readdirSync(path.join(repo, d)).filter((f) => statSync(path.join(repo, d, f)).isDirectory()).map((f) => path.join(repo, d, f));

export function allModels(): Named[] {
  const out: Named[] = PLATFORMS.map((p) => ({ name: `generated ${p}`, load: async () => buildPlatform(p, { pods: 4, services: 5 }).model }));
  for (const d of [...dirs('assets/demo'), ...dirs('test/fixtures/foreign'), ...dirs('test/fixtures/foreign-faults'), ...['foreign-aks-overlay', 'foreign-eks-vpc-bridge', 'foreign-calico-vxlan'].map((f) => path.join(repo, 'test/fixtures', f))]) out.push({ name: path.relative(repo, d), load: () => loadBundle(d) });
  return out;
}

/**
 * reachFrom(m, src) on one of these bundles, computed once per test worker and frozen
 * (test/support/shared-results.ts): invariants, split and partition all start from the classes of the
 * first pod of each. `m` must be `n.load()`'s model: the key is the bundle's name.
 */
export function reachOnce(n: Named, m: NodeModel, src: string): ReachFrom {
  return sharedResult(`reachFrom ${n.name} ${src}`, () => reachFrom(m, src));
}
