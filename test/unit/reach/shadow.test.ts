// Issue #25 point 4: rules that can never match, named with the rules that block them, crossed with the
// dump's counters. The real dump of microsoft/SdnDiagnostics#629 (FW_ADMIN_LAYER) has an allow-all at
// priority 1000 above a block-all at 65532: the block can never match.
import { describe, expect, it } from 'vitest';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { assembleModel } from '../../../parsers/model/assemble.ts';
import { shadowedRules, ruleCovers, formatShadow } from '../../../analysis/reach/index.ts';
import { checkConditions } from '../../../analysis/walk/match.ts';
import { CORPUS, corpusText } from '../../helpers/corpus.ts';
import { build } from '../walk/helpers.ts';
import type { Packet } from '../../../analysis/walk/types.ts';

const FILE = 'vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt';
const model = (text: string) => assembleModel([parseBundleFile('vfpOutput.txt', new TextEncoder().encode(text))], { location: 'mem', kind: 'folder', root: '' });

describe.skipIf(!CORPUS)('shadowed rules on a real dump', () => {
  it('names the block-all that the allow-all above it hides, and that the action differs', () => {
    const s = shadowedRules(model(corpusText(FILE)));
    expect(s.shadowed).toHaveLength(1);
    expect(s.shadowed[0]).toMatchObject({ rule: 'eb952905-a8ab-4591-86b0-202cbb575cc4', priority: 65532, layer: 'FW_ADMIN_LAYER', blockedBy: [{ rule: '418b4399-4acf-4641-9278-7bed0fc6b129', priority: 1000, actionDiffers: true }] });
    expect(s.portsWithCounters).toBe(0);
    expect(formatShadow(s)).toMatch(/the dump has no rule counters/);
  });

  it('a shadowed rule the counters say was hit is said loudly; a matchable rule with 0 hits is listed', () => {
    // The same dump as /get-rule-counter prints it (counter lines after FlagsEx), with hits on the hidden rule.
    let n = 0;
    const text = corpusText(FILE).replace(/FlagsEx : 0 ?\r?\n/g, (m) => `${m}        Matched packets : ${n++ === 0 ? 0 : 12}\n        Dropped packets : 0\n`);
    const s = shadowedRules(model(text));
    expect(s.portsWithCounters).toBe(1);
    expect(s.shadowed[0].matchedPackets).toBe(12);
    expect(s.shadowed[0].contradiction).toMatch(/cannot match .* yet the counters show 12 matched packet/);
    expect(s.zeroHits.count).toBe(1);
    expect(s.zeroHits.first[0].rule).toBe('418b4399-4acf-4641-9278-7bed0fc6b129');
    expect(formatShadow(s)).toMatch(/!! counted 12 hits:/);
  });
});

describe('ruleCovers is sound on a generated node', () => {
  it('whenever one rule covers another, every packet the covered one matches, the other matches too', () => {
    const { model: m } = build();
    const rules = (m.ports ?? []).flatMap((p) => (m.vfp?.getPolicy(p.key)?.layers ?? []).flatMap((l) => l.groups.flatMap((g) => g.rules)));
    const probes: Packet[] = [];
    for (const ip of ['10.244.59.3', '10.96.0.10', '10.240.0.4', '8.8.8.8', '10.244.60.7']) for (const proto of ['tcp', 'udp', 'icmp'] as const) for (const dstPort of [53, 80, 443, 8080, 31201]) probes.push({ srcIp: '10.244.59.3', dstIp: ip, proto, dstPort: proto === 'icmp' ? undefined : dstPort, srcPort: proto === 'icmp' ? undefined : 49152 });
    let covered = 0;
    for (const b of rules.slice(0, 150))
      for (const r of rules.slice(0, 150)) {
        if (b === r || !ruleCovers(b, r)) continue;
        covered++;
        for (const p of probes) if (checkConditions(r.conditions, p).result === 'match') expect(checkConditions(b.conditions, p).result, `${b.name} covers ${r.name}`).toBe('match');
      }
    expect(covered).toBeGreaterThan(0);
  });
});
