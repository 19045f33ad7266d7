// The nodes the reach properties run on: every generated platform, the demos, and every bundle under
// test/fixtures/foreign and foreign-faults (hand-written from primary sources, see their READMEs).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS } from '../../../tools/gen/index.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

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
  for (const d of [...dirs('assets/demo'), ...dirs('test/fixtures/foreign'), ...dirs('test/fixtures/foreign-faults')]) out.push({ name: path.relative(repo, d), load: () => loadBundle(d) });
  return out;
}
