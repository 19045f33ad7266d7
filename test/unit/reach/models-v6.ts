// The dual-stack nodes the IPv6 reach properties run on. The generator makes no dual-stack node
// (tools/gen has no IPv6 option), so they are the walk scenarios' dual-stack base (hand-written from
// primary sources: test/fixtures/walk-scenarios/README.md), the scenario that removes an IPv6 group,
// the base with its IPv6 route table emptied (a collection that printed `route print -4`), and the base
// with an IPv6 block rule on one pod's port (withIpv6Block).
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

/**
 * The base with one IPv6 block rule in pod fd00:10:244:5::a's ACL OUT group (a network policy denying
 * TCP 443 to part of the remote pod subnet): a cut that only VFP makes (no HNS table names that range),
 * so only the layer cuts (layer-cuts.ts) can find it. Written in the base's own rule format; a
 * priority below the allow-all rule's, as kube-proxy/HNS order ACLs (lower number first).
 */
export const BLOCK6 = { rule: 'BLOCK6-POLICY-0000-4000-8000-00000000000A', lo: 'fd00:10:244:6::20', hi: 'fd00:10:244:6::2f', port: 443 };
export function withIpv6Block(): string {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'hnsight-v6-')), 'dualstack-v6-block');
  mkdirSync(out);
  for (const f of readdirSync(DUALSTACK)) copyFileSync(path.join(DUALSTACK, f), path.join(out, f));
  const file = path.join(out, 'vfpOutput.txt');
  const text = readFileSync(file, 'utf8');
  const anchor = '    RULE : 0ACLO61111-0000-4000-8000-00000000000A';
  if (text.split(anchor).length !== 2) throw new Error('the base changed: its pod a IPv6 ACL OUT rule is not found once');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const block = [`    RULE : ${BLOCK6.rule}`, '        Priority : 100', '        Flags : 1 terminating ', '        Type : block', '        Conditions:', '            Protocols : 6', `            Destination IP : ${BLOCK6.lo}-${BLOCK6.hi}`, `            Destination ports : ${BLOCK6.port}`, '        Flow TTL: 0', '        FlagsEx : 0 ', '', ''].join(eol);
  writeFileSync(file, text.replace(anchor, block + anchor));
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
    { name: 'dualstack with an IPv6 block rule on a pod', load: () => loadBundle(withIpv6Block()) },
  ];
}
