// Compare's reachability list as lines (analysis/view-models/reach-diff-lines.ts): every change that
// passes the filters is on exactly one line — nothing cut, however many (the list used to stop at 300)
// — grouped by source and then destination kind, each header's count the changes under it; "became
// dropped" keeps exactly the changes whose verdict changed to dropped. Destinations are told from either
// bundle (analysis/view-models/reach-change-destination.ts), on the demo node.
// And the walk of a change's example agrees with the class's verdict where reach's verdict is wider
// than one walk's (renderer/src/compare/walk-agrees.ts), and only there.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { becameChoices, becameOf, filterReachDiff, reachDiffLines, type BecameFilter } from '../../../analysis/view-models/reach-diff-lines.ts';
import { changeSource, type ReachChangeLine } from '../../../analysis/view-models/reach-diff-view.ts';
import { DESTINATION_KINDS, changeDestinations, type DestinationKind } from '../../../analysis/view-models/reach-change-destination.ts';
import { walkAgrees } from '../../../renderer/src/compare/walk-agrees.ts';
import { defaultDestinations, defaultSources, type ReachVerdict } from '../../../analysis/reach/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { intToIp } from '../../../analysis/walk/ip.ts';
import type { WalkHop } from '../../../analysis/walk/types.ts';

const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];
const KINDS = DESTINATION_KINDS.map((k) => k.kind);
const side = fc.record({ verdict: fc.constantFrom(...VERDICTS), decidingRule: fc.option(fc.constantFrom('DROP_ALL', 'ALLOW_ALL'), { nil: null }), reply: fc.option(fc.constantFrom(...VERDICTS), { nil: null }) });
const line: fc.Arbitrary<ReachChangeLine> = fc
  .record({ src: fc.integer({ min: 1, max: 6 }), lo: fc.nat(0xfffffff), proto: fc.constantFrom('tcp' as const, 'icmp' as const), before: side, after: side, kind: fc.option(fc.constantFrom(...KINDS), { nil: undefined }) })
  .map((r) => ({
    from: `10.244.0.${r.src}`,
    ...(r.src % 2 ? { fromName: `default/pod-${r.src}` } : {}),
    dst: [intToIp(r.lo), intToIp(r.lo + 3)] as [string, string],
    ports: r.proto === 'icmp' ? null : ([80, 80] as [number, number]),
    proto: r.proto,
    before: r.before,
    after: r.after,
    ...(r.kind ? { to: { kind: r.kind } } : {}),
  }));

describe("Compare's reachability lines", () => {
  it('list every change once (no cap), grouped by source then destination kind, with true counts', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 900 }), (changes) => {
        const lines = reachDiffLines(changes);
        const shown = lines.flatMap((l) => (l.type === 'change' ? [l] : []));
        expect(shown.map((l) => l.change)).toHaveLength(changes.length);
        expect(new Set(shown.map((l) => l.change))).toEqual(new Set(changes));
        // `at` numbers the changes in the order shown.
        expect(shown.map((l) => l.at)).toEqual(shown.map((_, i) => i));
        let source = '';
        let kind: DestinationKind | undefined;
        const seen = new Set<string>();
        for (const [i, l] of lines.entries()) {
          if (l.type === 'source') {
            // One header per source; its count is the changes from it.
            expect(seen.has(l.title)).toBe(false);
            seen.add(l.title);
            source = l.title;
            kind = undefined;
            expect(l.count).toBe(changes.filter((c) => changeSource(c) === l.title).length);
            expect(lines[i + 1]?.type).toBe('destination');
          } else if (l.type === 'destination') {
            // Kinds in their fixed order within a source.
            if (kind) expect(KINDS.indexOf(l.kind)).toBeGreaterThan(KINDS.indexOf(kind));
            kind = l.kind;
            expect(l.count).toBe(changes.filter((c) => changeSource(c) === source && (c.to?.kind ?? 'other') === l.kind).length);
          } else {
            expect(changeSource(l.change)).toBe(source);
            expect(l.change.to?.kind ?? 'other').toBe(kind);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('"became …" keeps exactly the changes whose verdict became that; the choices count them', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 300 }), (changes) => {
        const choices = becameChoices(changes);
        expect(choices.reduce((n, c) => n + c.count, 0)).toBe(changes.length);
        for (const { became, count } of choices) {
          const kept = filterReachDiff(changes, { kind: 'all', became, query: '' });
          expect(kept).toHaveLength(count);
          for (const c of kept) {
            if (became === 'same') expect(c.after.verdict).toBe(c.before.verdict);
            else expect([c.before.verdict === c.after.verdict, c.after.verdict]).toEqual([false, became]);
          }
        }
        const dropped = filterReachDiff(changes, { kind: 'all', became: 'dropped' as BecameFilter, query: '' });
        expect(dropped).toEqual(changes.filter((c) => c.after.verdict === 'dropped' && c.before.verdict !== 'dropped'));
        expect(filterReachDiff(changes, { kind: 'all', became: 'any', query: '' })).toEqual(changes);
        for (const c of changes) expect(becameOf(c)).toBe(c.before.verdict === c.after.verdict ? 'same' : c.after.verdict);
      }),
      { numRuns: 60 },
    );
  });
});

describe("a change's destination kind (demo node)", () => {
  it('names its pods, Services, the node; a range across them is other addresses', async () => {
    const m = await loadBundle(path.resolve('assets/demo/l2bridge-node'));
    const to = changeDestinations(m, m);
    const one = (ip: string) => to({ dst: [ip, ip] });
    const pods = defaultSources(m).filter((s) => s.name !== 'host');
    expect(pods.length).toBeGreaterThan(0);
    for (const p of pods) expect(one(p.ip).kind).toBe('pod');
    const node = defaultSources(m).find((s) => s.name === 'host')!;
    expect(one(node.ip)).toEqual({ kind: 'node', name: 'node' });
    const services = defaultDestinations(m).filter((d) => d.port !== undefined && !pods.some((p) => p.ip === d.ip) && d.name !== 'outside');
    expect(services.length).toBeGreaterThan(0);
    for (const s of services) expect(one(s.ip).kind).toBe('service');
    expect(to({ dst: ['0.0.0.0', '255.255.255.255'] })).toEqual({ kind: 'other' });
    expect(one('93.184.216.34').kind).toBe('other');
  });
});

describe('the walk of a change’s example and the class’s verdict', () => {
  const walk = (verdict: 'delivered' | 'forwarded' | 'dropped' | 'unknown', extra: { ambiguous?: boolean; dependsOnUnmodelled?: boolean } = {}) => ({
    verdict,
    hops: [{ ambiguous: extra.ambiguous } as WalkHop],
    dependsOnUnmodelled: extra.dependsOnUnmodelled,
  });
  it('agree where one walk can only be one of the class’s outcomes, and differ where they differ', () => {
    expect(walkAgrees('delivered or forwarded', walk('forwarded'))).toBe(true);
    expect(walkAgrees('delivered or forwarded', walk('delivered'))).toBe(true);
    expect(walkAgrees('delivered or forwarded', walk('dropped'))).toBe(false);
    expect(walkAgrees('ambiguous', walk('dropped'))).toBe(true);
    expect(walkAgrees('insufficient information', walk('unknown', { dependsOnUnmodelled: true }))).toBe(true);
    expect(walkAgrees('dropped', walk('delivered'))).toBe(false);
    expect(walkAgrees('delivered', walk('delivered', { ambiguous: true }))).toBe(false);
    for (const v of ['delivered', 'forwarded', 'dropped', 'unknown'] as const) expect(walkAgrees(v, walk(v))).toBe(true);
  });
});
