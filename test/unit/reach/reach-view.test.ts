// The Reachability view's model (analysis/view-models/reach-view.ts): grouping, collapsing, filters,
// tones and words, on hand-made matrices and random ones (fast-check), and on the demo's real matrix.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { reachGrid, defaultCollapsed, WIDE_GROUP, cellFlow, findingsTouched, isAsymmetric, toneOf, type ReachFilter } from '../../../analysis/view-models/reach-view.ts';
import { reachMatrixView, type ReachCellView, type ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import type { ReachVerdict } from '../../../analysis/reach/index.ts';
import { defaultDestinations, defaultSources, reachMatrix } from '../../../analysis/reach/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';

const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];

function matrix(): ReachMatrixView {
  return {
    sources: [
      { ip: '10.0.0.4', name: 'default/web', kind: 'pod', namespace: 'default' },
      { ip: '10.0.0.5', name: 'kube-system/dns', kind: 'pod', namespace: 'kube-system' },
      { ip: '192.168.1.10', name: 'host', kind: 'host' },
    ],
    destinations: [
      { ip: '10.0.0.4', port: 80, proto: 'tcp', name: 'default/web', kind: 'pod', namespace: 'default' },
      { ip: '10.96.0.10', port: 53, proto: 'udp', name: 'kube-system/kube-dns', kind: 'service', namespace: 'kube-system' },
      { ip: '93.184.216.34', port: 443, proto: 'tcp', name: 'outside', kind: 'outside' },
    ],
    cells: [
      cell(0, 1, 'delivered', 'dropped'),
      cell(0, 2, 'dropped', null, [{ key: 'f1', title: 'ExceptionList typo', severity: 'error' }]),
      cell(1, 0, 'delivered', 'delivered'),
      cell(1, 2, 'ambiguous', null),
      cell(2, 0, 'insufficient information', null),
    ],
    notes: [],
  };
}

function cell(s: number, d: number, verdict: ReachVerdict, reply: ReachVerdict | null, findings: ReachCellView['findings'] = []): ReachCellView {
  return { s, d, verdict, reply, decidingRule: verdict === 'dropped' ? 'DROP_ALL' : null, decidedAt: 'pod port OUT', reason: `reason ${s}-${d}`, findings };
}

const endRow = (g: ReturnType<typeof reachGrid>, ip: string, v: ReachMatrixView) => g.rows.findIndex((r) => r.type === 'end' && v.sources[r.index].ip === ip);
const endCol = (g: ReturnType<typeof reachGrid>, name: string, v: ReachMatrixView) => g.cols.findIndex((c) => c.type === 'end' && v.destinations[c.index].name === name);

describe('reach view model', () => {
  it('groups pods by namespace with the host apart, and destinations by kind', () => {
    const v = matrix();
    const g = reachGrid(v, { kind: 'all' }, new Set());
    expect(g.rows.filter((r) => r.type === 'group').map((r) => r.label)).toEqual(['Pods · default', 'Pods · kube-system', 'Host']);
    expect(g.cols.filter((r) => r.type === 'group').map((r) => r.label)).toEqual(['Pods · default', 'Services · kube-system', 'Node and outside']);
    // Under its namespace's header a line does not repeat the namespace (it fits the row's width);
    // the cell's words keep the whole name.
    const web = g.cols.find((c) => c.type === 'end' && v.destinations[c.index].name === 'default/web');
    expect(web?.label).toMatch(/^web · /);
    const c = g.at(endRow(g, '10.0.0.5', v), g.cols.indexOf(web!));
    expect(c.label).toContain('default/web');
  });

  it('colours and words a cell by its verdict, and says what decided it', () => {
    const v = matrix();
    const g = reachGrid(v, { kind: 'all' }, new Set());
    const c = g.at(endRow(g, '10.0.0.4', v), endCol(g, 'outside', v));
    expect(c.tone).toBe('dropped');
    expect(c.label).toMatch(/dropped.*rule DROP_ALL/);
    expect(c.label).toMatch(/ExceptionList typo/);
    expect(g.at(endRow(g, '192.168.1.10', v), endCol(g, 'default/web', v)).tone).toBe('insufficient');
    expect(g.at(endRow(g, '10.0.0.5', v), endCol(g, 'outside', v)).tone).toBe('ambiguous');
    // A pair that was not worked out says so.
    const none = g.at(endRow(g, '10.0.0.4', v), endCol(g, 'default/web', v));
    expect(none.tone).toBe('none');
    expect(none.label).toMatch(/the same address, not walked/);
    const notWalked = g.at(endRow(g, '10.0.0.5', v), endCol(g, 'kube-system/kube-dns', v));
    expect(notWalked.label).toMatch(/not worked out \(Enter works it out\)/);
    expect(notWalked.missing).toBe(1);
    expect(none.missing).toBe(0);
    // While walks are under way, it is not worked out *yet*.
    const running = reachGrid(v, { kind: 'all' }, new Set(), { running: true });
    expect(running.at(endRow(g, '10.0.0.5', v), endCol(g, 'kube-system/kube-dns', v)).label).toMatch(/not worked out yet$/);
  });

  it('a group line counts the cells under it not worked out, never as a verdict, and names its block', () => {
    const v = matrix();
    const g = reachGrid(v, { kind: 'all' }, new Set(['col:svc:kube-system']));
    const svc = g.cols.findIndex((c) => c.type === 'group' && c.id === 'col:svc:kube-system');
    const kube = g.rows.findIndex((r) => r.type === 'group' && r.id === 'row:pods:kube-system');
    // kube-system/dns → kube-dns was not walked: the summary is not worked out, not a colour.
    const sum = g.at(kube, svc);
    expect(sum.missing).toBe(1);
    expect(sum.tone).toBe('none');
    expect(sum.label).toMatch(/1 not worked out/);
    expect(g.block(kube, svc)).toEqual({ sources: [1], destinations: [1] });
    // Every pair not worked out (and not a source to itself) is counted once in the grid's group lines.
    const rowsAll = g.rows.flatMap((r, i) => (r.type === 'group' ? [i] : []));
    const colsAll = g.cols.flatMap((c, i) => (c.type === 'group' ? [i] : []));
    const total = rowsAll.reduce((n, r) => n + colsAll.reduce((m, k) => m + g.at(r, k).missing, 0), 0);
    const expected = v.sources.length * v.destinations.length - v.cells.length - v.sources.filter((s) => v.destinations.some((d) => d.ip === s.ip)).length;
    expect(total).toBe(expected);
  });

  it('a packet that gets through with an error on its path is not green', () => {
    const v = matrix();
    v.cells[2].findings = [{ key: 'f2', title: 'Endpoint has no vNIC', severity: 'error' }];
    const g = reachGrid(v, { kind: 'all' }, new Set());
    const c = g.at(endRow(g, '10.0.0.5', v), endCol(g, 'default/web', v));
    expect(c.tone).toBe('flagged');
    expect(c.label).toMatch(/delivered, but a finding on its path says otherwise.*Endpoint has no vNIC/);
    // An info finding leaves it green.
    v.cells[2].findings = [{ key: 'f3', title: 'note', severity: 'info' }];
    expect(reachGrid(v, { kind: 'all' }, new Set()).at(endRow(g, '10.0.0.5', v), endCol(g, 'default/web', v)).tone).toBe('delivered');
  });

  it('Services groups and column groups wider than a screen start collapsed; rows and other narrow groups stay open', () => {
    const v = matrix();
    expect([...defaultCollapsed(v)]).toEqual(['col:svc:kube-system']);
    const pods = Array.from({ length: WIDE_GROUP + 1 }, (_, i) => ({ ip: `10.0.1.${i}`, proto: 'icmp' as const, name: `web/p${i}`, kind: 'pod' as const, namespace: 'web' }));
    expect([...defaultCollapsed({ ...v, destinations: [...v.destinations, ...pods] })].sort()).toEqual(['col:pods:web', 'col:svc:kube-system']);
    const many = Array.from({ length: WIDE_GROUP + 1 }, (_, i) => ({ ip: `10.96.1.${i}`, port: 80, proto: 'tcp' as const, name: `kube-system/s${i}`, kind: 'service' as const, namespace: 'kube-system' }));
    const wide = { ...v, destinations: [...v.destinations, ...many] };
    expect([...defaultCollapsed(wide)]).toEqual(['col:svc:kube-system']);
  });

  it('a cell opens its example packet', () => {
    const v = matrix();
    expect(cellFlow(v, v.cells[0])).toEqual({ srcIp: '10.0.0.4', dstIp: '10.96.0.10', proto: 'udp', dstPort: 53 });
  });

  it('filters: dropped, not symmetric, a finding', () => {
    const v = matrix();
    const dropped = reachGrid(v, { kind: 'dropped' }, new Set());
    expect(dropped.rows.filter((r) => r.type === 'end')).toHaveLength(1);
    expect(dropped.counts.dropped).toBe(1);
    const asym = reachGrid(v, { kind: 'asymmetric' }, new Set());
    const cols = asym.cols.filter((c) => c.type === 'end').map((c) => (c.type === 'end' ? v.destinations[c.index].name : ''));
    expect(cols).toEqual(['kube-system/kube-dns']);
    expect(isAsymmetric(v.cells[2])).toBe(false);
    expect(findingsTouched(v)).toEqual([{ key: 'f1', title: 'ExceptionList typo', severity: 'error', cells: 1 }]);
    expect(reachGrid(v, { kind: 'finding', key: 'f1' }, new Set()).counts.dropped).toBe(1);
  });

  it('a collapsed group is one line showing its worst outcome', () => {
    const v = matrix();
    const g = reachGrid(v, { kind: 'all' }, new Set(['col:out']));
    const k = g.cols.findIndex((c) => c.type === 'group' && c.id === 'col:out');
    expect(g.cols.some((c) => c.type === 'end' && c.group === 'col:out')).toBe(false);
    const r = endRow(g, '10.0.0.4', v);
    expect(g.at(r, k).tone).toBe('dropped');
    expect(g.at(r, k).label).toMatch(/1 dropped/);
  });

  const arbMatrix = fc
    .record({ ns: fc.integer({ min: 1, max: 12 }), nd: fc.integer({ min: 1, max: 12 }) })
    .chain(({ ns, nd }) =>
      fc.record({
        ns: fc.constant(ns),
        nd: fc.constant(nd),
        spaces: fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: ns + nd, maxLength: ns + nd }),
        cells: fc.array(fc.record({ s: fc.nat(ns - 1), d: fc.nat(nd - 1), v: fc.constantFrom(...VERDICTS), r: fc.option(fc.constantFrom(...VERDICTS)), f: fc.boolean() }), { maxLength: 60 }),
        collapse: fc.subarray(['row:pods:a', 'row:pods:b', 'col:svc:c', 'col:pods:a', 'col:out', 'row:host']),
        filter: fc.constantFrom<ReachFilter>({ kind: 'all' }, { kind: 'dropped' }, { kind: 'asymmetric' }, { kind: 'finding', key: 'k' }),
      }),
    );

  it('property: every cell that matches the filter is shown, on its row and column or its collapsed groups, with its tone or a worse one', () => {
    fc.assert(
      fc.property(arbMatrix, (x) => {
        const seen = new Set<string>();
        const cells = x.cells.filter((c) => (seen.has(`${c.s},${c.d}`) ? false : (seen.add(`${c.s},${c.d}`), true)));
        const v: ReachMatrixView = {
          sources: Array.from({ length: x.ns }, (_, i) => ({ ip: `10.0.0.${i + 1}`, name: i === 0 ? 'host' : `${x.spaces[i]}/p${i}`, kind: i === 0 ? 'host' : 'pod', namespace: i === 0 ? undefined : x.spaces[i] })),
          destinations: Array.from({ length: x.nd }, (_, i) => ({ ip: `10.1.0.${i + 1}`, port: 80, proto: 'tcp', name: `${x.spaces[x.ns + i]}/s${i}`, kind: i % 3 === 0 ? 'outside' : i % 2 ? 'service' : 'pod', namespace: x.spaces[x.ns + i] })),
          cells: cells.map((c) => ({ s: c.s, d: c.d, verdict: c.v, reply: c.r, decidingRule: null, decidedAt: '', reason: '', findings: c.f ? [{ key: 'k', title: 'K', severity: 'warning' }] : [] })),
          notes: [],
        };
        const g = reachGrid(v, x.filter, new Set(x.collapse));
        const RANK = ['dropped', 'flagged', 'ambiguous', 'unknown', 'insufficient', 'split', 'forwarded', 'delivered', 'none'];
        for (const c of v.cells) {
          const m = x.filter.kind === 'all' || (x.filter.kind === 'dropped' ? c.verdict === 'dropped' : x.filter.kind === 'asymmetric' ? isAsymmetric(c) : c.findings.length > 0);
          const r = g.rows.findIndex((l) => (l.type === 'end' ? l.index === c.s : l.collapsed && l.members.includes(c.s)));
          const k = g.cols.findIndex((l) => (l.type === 'end' ? l.index === c.d : l.collapsed && l.members.includes(c.d)));
          if (!m) continue;
          expect(r).toBeGreaterThanOrEqual(0);
          expect(k).toBeGreaterThanOrEqual(0);
          const shown = g.at(r, k);
          expect(shown.match).toBe(true);
          expect(RANK.indexOf(shown.tone)).toBeLessThanOrEqual(RANK.indexOf(toneOf(c)));
        }
        // Lines that are shown under a filter all have a matching cell.
        for (let r = 0; r < g.rows.length; r++) {
          if (x.filter.kind === 'all' || g.rows[r].type === 'group') continue;
          expect(g.cols.some((_, k) => g.at(r, k).match)).toBe(true);
        }
      }),
    );
  });

  it('on the demo, the faults show as non-green cells with the finding that explains them', async () => {
    // assets/demo/l2bridge-node: an OutBoundNAT ExceptionList typo on every pod, a pod endpoint whose vNIC never arrived.
    const m = await loadBundle('assets/demo/l2bridge-node');
    const sources = defaultSources(m);
    const dests = defaultDestinations(m);
    const v = reachMatrixView(sources, dests, reachMatrix(m, dests, { findings: modelFindings(m) }));
    expect(v.cells.length).toBeGreaterThan(0);
    const bad = v.cells.filter((c) => c.verdict !== 'delivered' && c.verdict !== 'forwarded');
    expect(bad.length).toBeGreaterThan(0);
    const g = reachGrid(v, { kind: 'dropped' }, new Set());
    expect(g.counts.dropped).toBe(v.cells.filter((c) => c.verdict === 'dropped').length);
    // The pod whose vNIC never arrived (10.244.32.9) and the ExceptionList typo (every pod to the outside).
    const touched = findingsTouched(v).map((f) => f.key.replace(/#\d+$/, ''));
    expect(touched).toEqual(expect.arrayContaining(['endpoint-without-vnic', 'outboundnat-exception-typo']));
    const toVnicLess = v.cells.filter((c) => v.destinations[c.d].ip === '10.244.32.9');
    expect(toVnicLess.length).toBeGreaterThan(0);
    for (const c of toVnicLess) expect(toneOf(c)).not.toBe('delivered');
    const toOutside = v.cells.filter((c) => v.destinations[c.d].kind === 'outside' && v.sources[c.s].kind === 'pod');
    expect(toOutside.length).toBe(8);
    for (const c of toOutside) expect(['flagged', 'dropped']).toContain(toneOf(c));
  }, 60_000);
});
