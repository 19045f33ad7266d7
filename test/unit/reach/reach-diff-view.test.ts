// Compare's Reachability part, its pure model (analysis/view-models/reach-diff-view.ts): each change's
// example lies inside the change on both sides (fast-check), the kinds of change split the list, the
// words name the source, the packets and both outcomes; and on a real pair (a node before and after
// an ExceptionList typo, test/fixtures/foreign-faults) each change's example walks, in each bundle, to
// the outcome the change says.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { changeFlow, changeKind, changeTarget, changeWords, filterChanges } from '../../../analysis/view-models/reach-diff-view.ts';
import { diffReach, outcomeOf, type ReachChange, type ReachVerdict } from '../../../analysis/reach/index.ts';
import { intToIp, ipToInt } from '../../../analysis/walk/ip.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { outcomeSide } from '../../../analysis/reach/diff.ts';

const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];
const side = fc.record({ verdict: fc.constantFrom(...VERDICTS), decidingRule: fc.option(fc.constantFrom('DROP_ALL', 'ALLOW_ALL'), { nil: null }), reply: fc.option(fc.constantFrom(...VERDICTS), { nil: null }) });
const change: fc.Arbitrary<ReachChange> = fc
  .record({
    lo: fc.nat(0xffffffff),
    span: fc.nat(0xffff),
    proto: fc.constantFrom('tcp' as const, 'udp' as const, 'icmp' as const),
    p: fc.integer({ min: 1, max: 65535 }),
    q: fc.integer({ min: 1, max: 65535 }),
    before: side,
    after: side,
    after2: fc.option(fc.constant('10.0.0.99'), { nil: undefined }),
  })
  .map((r) => ({
    from: '10.0.0.4',
    fromName: 'default/web',
    ...(r.after2 ? { fromAfter: r.after2 } : {}),
    dst: [intToIp(r.lo), intToIp(Math.min(0xffffffff, r.lo + r.span))] as [string, string],
    ports: r.proto === 'icmp' ? null : ([Math.min(r.p, r.q), Math.max(r.p, r.q)] as [number, number]),
    proto: r.proto,
    before: r.before,
    after: r.after,
  }));

describe('reach diff view model', () => {
  it("a change's example lies inside it, from the source's address on each side", () => {
    fc.assert(
      fc.property(change, (c) => {
        for (const s of ['a', 'b'] as const) {
          const f = changeFlow(c, s);
          const ip = ipToInt(f.dstIp)!;
          expect(ip).toBeGreaterThanOrEqual(ipToInt(c.dst[0])!);
          expect(ip).toBeLessThanOrEqual(ipToInt(c.dst[1])!);
          expect(f.proto).toBe(c.proto);
          if (c.ports) {
            expect(f.dstPort).toBeGreaterThanOrEqual(c.ports[0]);
            expect(f.dstPort).toBeLessThanOrEqual(c.ports[1]);
          } else expect(f.dstPort).toBeUndefined();
          expect(f.srcIp).toBe(s === 'b' ? (c.fromAfter ?? c.from) : c.from);
        }
      }),
    );
  });

  it('the kinds of change split the list; worse and better are each other mirrored', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (cs) => {
        const n = (['worse', 'better', 'other'] as const).reduce((k, kind) => k + filterChanges(cs, kind, '').length, 0);
        expect(n).toBe(cs.length);
        expect(filterChanges(cs, 'all', '')).toEqual(cs);
        for (const c of cs) {
          const m = changeKind({ ...c, before: c.after, after: c.before });
          expect(m).toBe(changeKind(c) === 'worse' ? 'better' : changeKind(c) === 'better' ? 'worse' : 'other');
        }
      }),
    );
    const c: ReachChange = { from: '10.0.0.4', dst: ['10.96.0.10', '10.96.0.10'], ports: [53, 53], proto: 'udp', before: { verdict: 'delivered', decidingRule: null, reply: 'delivered' }, after: { verdict: 'dropped', decidingRule: 'DROP_ALL', reply: null } };
    expect(changeKind(c)).toBe('worse');
    // A reply that stops coming back is worse too.
    expect(changeKind({ ...c, after: { verdict: 'delivered', decidingRule: null, reply: 'dropped' } })).toBe('worse');
    expect(changeTarget(c)).toBe('10.96.0.10 port 53 UDP');
    expect(changeWords(c)).toBe('From 10.0.0.4 to 10.96.0.10 port 53 UDP: before delivered, reply delivered; after dropped by rule DROP_ALL');
    expect(filterChanges([c], 'all', 'drop_all')).toHaveLength(1);
    expect(filterChanges([c], 'all', '10.96.0.11')).toHaveLength(0);
    // A change that keeps the verdict (the ExceptionList typo: SNAT lost; a route lost: another next hop)
    // says what differs on each side, or its line would read the same twice.
    const snat: ReachChange = { from: '10.244.3.5', dst: ['8.8.8.8', '8.8.8.8'], ports: [1, 65535], proto: 'tcp', before: { verdict: 'forwarded', decidingRule: null, reply: 'delivered', rewrites: ['SNAT 10.244.3.5 → 192.168.30.21'], nextHop: '192.168.30.1' }, after: { verdict: 'forwarded', decidingRule: null, reply: 'unknown', rewrites: [], nextHop: '192.168.30.1' } };
    expect(changeWords(snat)).toBe('From 10.244.3.5 to 8.8.8.8 any port TCP: before forwarded, reply delivered; rewrites: SNAT 10.244.3.5 → 192.168.30.21; after forwarded, reply unknown; rewrites: none');
    const hop: ReachChange = { ...snat, before: { ...snat.before, nextHop: '192.168.30.22' }, after: { ...snat.before, nextHop: '192.168.30.1' } };
    expect(changeWords(hop)).toContain('before forwarded, reply delivered; next hop: 192.168.30.22; after forwarded, reply delivered; next hop: 192.168.30.1');
  });

  it('on a node before and after an ExceptionList typo, each example walks to its side of the change', async () => {
    const fx = (p: string) => path.resolve('test/fixtures', p);
    const a = await loadBundle(fx('foreign/ws2019-flannel-l2bridge-2020'));
    const b = await loadBundle(fx('foreign-faults/l2bridge-exceptionlist-typo'));
    const d = diffReach(a, b);
    expect(d.changed.length).toBeGreaterThan(0);
    for (const c of d.changed) {
      for (const [s, m, want] of [['a', a, c.before], ['b', b, c.after]] as const) {
        // The whole compared side (verdict, rule, reply, rewrites, next hop, encap: analysis/reach/diff.ts).
        const f = changeFlow(c, s);
        expect(outcomeSide(outcomeOf(m, f).outcome, f.dstIp), `${s}: ${changeWords(c)}`).toEqual(want);
      }
    }
  }, 120_000);
});
