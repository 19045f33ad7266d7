// Real vfpctrl output from public sources, walked rule by rule: the shared corpus (../shared/corpus,
// read in place) and the verbatim excerpts in test/fixtures/vfp. Each expectation says what the dump
// itself shows.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseVfpRuleText, ruleEffect, type VfpPortPolicy } from '../../../parsers/vfp/index.ts';
import { walkPort } from '../../../analysis/walk/walk-port.ts';
import { applyRule } from '../../../analysis/walk/actions.ts';
import type { Packet } from '../../../analysis/walk/types.ts';

/** The corpus sits beside the repository (`../shared/corpus` from the main checkout; a worktree is one level deeper). */
function corpusDir(): string | undefined {
  let dir = path.resolve('.');
  for (let i = 0; i < 4; i++) {
    const c = path.join(dir, '..', 'shared', 'corpus');
    if (existsSync(c)) return c;
    dir = path.dirname(dir);
  }
  return undefined;
}
const CORPUS = corpusDir();
const corpus = (n: string) => readFileSync(path.join(CORPUS!, n), 'utf8');
const fixture = (n: string) => readFileSync(path.resolve('test/fixtures/vfp', n), 'utf8');

function policy(text: string, file: string): VfpPortPolicy {
  const r = parseVfpRuleText(text, file);
  expect(r.value.length, `${file} parses into a port`).toBe(1);
  return r.value[0];
}

const ctx = (p: Packet) => ({ flow: { srcIp: p.srcIp, dstIp: p.dstIp, dstPort: p.dstPort, proto: p.proto } });
const pkt = (srcIp: string, dstIp: string, dstPort?: number, proto: Packet['proto'] = 'tcp'): Packet => ({ srcIp, dstIp, dstPort, srcPort: proto === 'icmp' ? undefined : 49152, proto });

describe.skipIf(!CORPUS)('shared corpus', () => {
  it('SdnDiagnostics#629 FW_ADMIN_LAYER: the allow at 1000 beats the catch-all block at 65532, and keeps state', () => {
    const pol = policy(corpus('vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt'), 'pr629.txt');
    const p = pkt('10.0.0.9', '10.0.0.5', 3389);
    const r = walkPort(pol, 'vm', 'IN', p, ctx(p));
    expect(r.droppedAt).toBeUndefined();
    const h = r.hops.find((x) => x.kind === 'vfp')!;
    expect(h.rule).toBe('418b4399-4acf-4641-9278-7bed0fc6b129');
    expect(h.priority).toBe(1000);
    expect(h.stateful).toBe(true);
    // the layer prints no Flags line and has no OUT group: an OUT packet meets no group of it
    expect(walkPort(pol, 'vm', 'OUT', p, ctx(p)).hops).toEqual([]);
  });

  it('rke2 ACL layer (filtered /layer output): the host allow at 900 is taken for the host, the allow-all at 1000 for others', () => {
    const pol = policy(corpus('vfp-list-rule-acl-layer__mrolmedo-rke2windows-README.txt'), 'rke2.txt');
    const fromHost = pkt('10.156.233.218', '10.42.0.10', 80);
    const a = walkPort(pol, 'pod', 'IN', fromHost, ctx(fromHost)).hops.find((x) => x.kind === 'vfp')!;
    expect(a.rule).toBe('allow-host-to-endpoint');
    const other = pkt('10.42.0.11', '10.42.0.10', 80);
    const b = walkPort(pol, 'pod', 'IN', other, ctx(other)).hops.find((x) => x.kind === 'vfp')!;
    expect(b.rule).toBe('profile-kns.rke2-tcp-reset-test--atbkwj8tPVFG3P1-0');
  });

  it('kubernetes#115344 fragment: a RULE cut after "Friendly name : N" has no type, and the walk says it cannot model it', () => {
    const r = parseVfpRuleText(corpus('hns-loadbalancer-json-and-vfp-rule-fragment__kubernetes-kubernetes-pr-115344.txt'), 'pr115344.txt');
    const rule = r.value.flatMap((p) => p.layers.flatMap((l) => l.groups.flatMap((g) => g.rules)))[0];
    expect(rule).toBeDefined();
    expect(rule.type).toBe('');
    const p = pkt('10.0.0.1', '20.22.71.151', 80);
    const res = applyRule(rule, p, ctx(p));
    expect(res.kind).toBe('unknown');
    expect(res.unmodelled).toMatch(/not one vfpctrl documents/);
    expect(res.packet).toEqual(p);
  });
});

describe('verbatim excerpts (test/fixtures/vfp)', () => {
  it('kubernetes#79359: the dynnat rule keeps type dynnat, reads its second Type line as Source NAT with a pool, and SNATs to the source VIP', () => {
    const pol = policy(fixture('ref-k79359-snat-dynnat.txt'), 'k79359.txt');
    const rules = pol.layers.flatMap((l) => l.groups.flatMap((g) => g.rules));
    const snat = rules.find((r) => r.name.startsWith('SNAT_TCP'))!;
    expect(snat.type).toBe('dynnat');
    expect(snat.natPool).toBe('SLB_NATPOOL_IPV4_TCP_10.42.1.210.43.0.1443');
    expect(ruleEffect(snat).natKind).toBe('source');
    // The excerpt's groups were elided ("..."): give them the OUT direction the SNAT layer's rules are in.
    for (const l of pol.layers) for (const g of l.groups) g.direction = 'OUT';
    const p = pkt('10.42.1.7', '10.43.0.1', 443);
    const r = walkPort(pol, 'pod', 'OUT', p, ctx(p));
    const snatHop = r.hops.find((h) => h.ruleType === 'dynnat')!;
    expect(snatHop.action).toBe('SNAT');
    // the pool's range is not in the excerpt: the address is the rule name's first one (the source VIP), inferred
    expect(snatHop.after!.srcIp).toBe('10.42.1.2');
    expect(snatHop.inferred).toBe(true);
    expect(snatHop.stateful).toBe(true);
    // The LB layer's rule is cut after "Type : lbnat": no conditions, no DIPs — matched, but not modelled.
    const lbHop = r.hops.find((h) => h.ruleType === 'lbnat')!;
    expect(lbHop.unmodelled).toMatch(/no DIP range/);
    expect(r.hops.indexOf(snatHop)).toBeLessThan(r.hops.indexOf(lbHop));
  });

  it('kubernetes#79359: Block_LoopBack (source = destination = VIP) beats the SNAT rule at priority 1', () => {
    const pol = policy(fixture('ref-k79359-snat-dynnat.txt'), 'k79359.txt');
    for (const l of pol.layers) for (const g of l.groups) g.direction = 'OUT';
    const p = pkt('10.43.0.1', '10.43.0.1', 443);
    const r = walkPort(pol, 'pod', 'OUT', p, ctx(p));
    expect(r.droppedAt).toBeDefined();
    expect(r.hops[r.droppedAt!].rule).toMatch(/^Block_LoopBack/);
  });

  it('VFP.psm1 paroute: the interface constraint and the default compartment are read from the rule data', () => {
    const pol = policy(fixture('ref-vfppsm1-paroute-rule.txt'), 'vfppsm.txt');
    const rule = pol.layers.flatMap((l) => l.groups.flatMap((g) => g.rules))[0];
    const e = ruleEffect(rule);
    expect(e.interfaceIndex).toBe(11);
    expect(e.compartment).toBe('default');
    const p = pkt('10.244.1.5', '10.244.2.9', 80);
    const res = applyRule(rule, p, ctx(p));
    expect(res.action).toBe('PA route');
    expect(res.packet.paRoute).toMatchObject({ ifIndex: 11, compartment: 'default' });
  });

  it('the guide\'s "m encaps" rule: a map-space lookup, unmodelled when neither the port\'s mappings nor HNS name a provider address', () => {
    const pol = policy(fixture('seed-encap.txt'), 'seed-encap.txt');
    const rule = pol.layers.flatMap((l) => l.groups.flatMap((g) => g.rules))[0];
    const p = pkt('10.244.1.5', '10.244.3.9', 80);
    const res = applyRule(rule, p, ctx(p));
    expect(res.kind).toBe('encap');
    expect(res.unmodelled).toMatch(/map space 21A6CBA3-813D-4D85-98B0-A1CB27A6A6EC has no mapping for 10\.244\.3\.9/);
    const withHns = applyRule(rule, p, {
      ...ctx(p),
      hns: { remoteSubnetFor: () => ({ prefix: '10.244.3.0/24', pa: '10.127.130.37', vni: 4096 }), remoteEndpoint: () => undefined, outboundNatVip: () => undefined },
    });
    expect(withHns.packet.encap).toMatchObject({ type: 'VXLAN', dstIp: '10.127.130.37', vni: 4096, srcIp: '10.127.130.36' });
    expect(withHns.inferred).toBe(true);
  });
});
