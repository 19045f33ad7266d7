// The dual-stack nodes the IPv6 reach properties run on. The generator makes no dual-stack node
// (tools/gen has no IPv6 option), so they are the walk scenarios' dual-stack base (hand-written from
// primary sources: test/fixtures/walk-scenarios/README.md), the scenario that removes an IPv6 group,
// and the base with its IPv6 route table emptied (a collection that printed `route print -4`).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { scenarioBundle } from '../../helpers/scenario-bundle.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DUALSTACK = path.join(repo, 'test/fixtures/walk-scenarios/bases/dualstack-l2bridge');

/** The base with the "IPv6 Route Table" section's routes removed (its header kept). */
export function withoutIpv6Routes(): string {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'hnsight-v6-')), 'dualstack-no-v6-routes');
  mkdirSync(out);
  for (const f of readdirSync(DUALSTACK)) {
    if (f !== 'routes.txt') {
      copyFileSync(path.join(DUALSTACK, f), path.join(out, f));
      continue;
    }
    const lines = readFileSync(path.join(DUALSTACK, f), 'utf8').split(/\r?\n/);
    const at = lines.findIndex((l) => l.startsWith('IPv6 Route Table'));
    // Keep the IPv4 table and the IPv6 header; drop the IPv6 routes (lines of "If Metric Destination Gateway").
    writeFileSync(path.join(out, f), lines.filter((l, i) => i <= at || !/^\s*\d+\s+\d+\s+\S+/.test(l)).join('\n'));
  }
  return out;
}

export interface Named6 {
  name: string;
  load: () => Promise<NodeModel>;
}

export function dualStackModels(): Named6[] {
  return [
    { name: 'dualstack-l2bridge', load: () => loadBundle(DUALSTACK) },
    { name: 'd05-dualstack-v6-group-missing', load: () => loadBundle(scenarioBundle(['d05-dualstack-v6-group-missing'])) },
    { name: 'dualstack without IPv6 routes', load: () => loadBundle(withoutIpv6Routes()) },
  ];
}
