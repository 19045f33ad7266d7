// The Reachability grid shows, in the cell itself, that a verdict rests on an inference (issue #25): the
// title alone said "(inferred)", which a user scanning the grid never reads. The mark is a glyph of its
// own ("*", the CLI tables' mark), so it does not rely on colour; the legend explains it; a group line
// carries it when a cell of the outcome it shows rests on an inference.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import path from 'node:path';
import { INFERRED_MARK, LEGEND_MARKS, reachGrid } from '../../../analysis/view-models/reach-view.ts';
import { reachMatrixView, type ReachCellView, type ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import type { ReachVerdict } from '../../../analysis/reach/index.ts';
import { defaultDestinations, defaultSources, reachMatrix } from '../../../analysis/reach/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';

const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];

function view(cells: ReachCellView[], nSrc: number, nDst: number): ReachMatrixView {
  return {
    sources: Array.from({ length: nSrc }, (_, i) => ({ ip: `10.0.0.${i + 1}`, name: `default/p${i}`, kind: 'pod' as const, namespace: 'default' })),
    destinations: Array.from({ length: nDst }, (_, i) => ({ ip: `10.96.0.${i + 1}`, port: 80, proto: 'tcp' as const, name: `default/s${i}`, kind: 'service' as const, namespace: 'default' })),
    cells,
    notes: [],
  };
}

describe('the inference mark in the grid', () => {
  it('is a glyph, not a colour, and the legend says what it means', () => {
    expect(INFERRED_MARK).toBe('*');
    const entry = LEGEND_MARKS.find((m) => m.mark === INFERRED_MARK);
    expect(entry?.label).toMatch(/inference/i);
  });

  it('marks exactly the cells whose verdict rests on an inference, whatever the verdict (random matrices)', () => {
    const cellArb = fc.record({ verdict: fc.constantFrom(...VERDICTS), inferred: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 5 }), fc.array(cellArb, { minLength: 20, maxLength: 20 }), (ns, nd, specs) => {
        const cells: ReachCellView[] = [];
        for (let s = 0; s < ns; s++)
          for (let d = 0; d < nd; d++) {
            const spec = specs[(s * nd + d) % specs.length]!;
            cells.push({ s, d, verdict: spec.verdict, reply: null, decidingRule: null, decidedAt: 'vSwitch', reason: 'r', findings: [], ...(spec.inferred ? { verdictInferred: 'vSwitch: a step the bundle does not show' } : {}) });
          }
        const v = view(cells, ns, nd);
        const g = reachGrid(v, { kind: 'all' }, new Set());
        for (let r = 0; r < g.rows.length; r++)
          for (let k = 0; k < g.cols.length; k++) {
            const row = g.rows[r]!;
            const col = g.cols[k]!;
            const at = g.at(r, k);
            if (row.type === 'end' && col.type === 'end') {
              const c = cells.find((x) => x.s === row.index && x.d === col.index)!;
              expect(at.inferred).toBe(c.verdictInferred !== undefined);
            } else {
              // A group line: marked when a cell showing the group's outcome rests on an inference.
              const members = (l: typeof row) => (l.type === 'group' ? l.members : [l.index]);
              const under = cells.filter((c) => members(row).includes(c.s) && members(col).includes(c.d));
              expect(at.inferred).toBe(under.some((c) => c.verdictInferred !== undefined && at.tone === g.at(g.rows.findIndex((x) => x.type === 'end' && x.index === c.s), g.cols.findIndex((x) => x.type === 'end' && x.index === c.d)).tone));
            }
          }
      }),
      { numRuns: 60 },
    );
  });

  it('a cell not worked out never carries it', () => {
    const v = view([], 1, 1);
    const g = reachGrid(v, { kind: 'all' }, new Set());
    for (let r = 0; r < g.rows.length; r++) for (let k = 0; k < g.cols.length; k++) expect(g.at(r, k).inferred).toBe(false);
  });
});

describe('on a real node (ws2019-flannel-l2bridge-2020): every cell whose verdict is inferred shows the mark', async () => {
  const m = await loadBundle(path.resolve('test/fixtures/foreign/ws2019-flannel-l2bridge-2020'));
  const destinations = defaultDestinations(m);
  const cells = reachMatrix(m, destinations, { maxWalks: 20_000 });
  const v = reachMatrixView(defaultSources(m), destinations, cells);
  const g = reachGrid(v, { kind: 'all' }, new Set());
  it('some cells are inferred, and those and only those are marked', () => {
    let marked = 0;
    for (let r = 0; r < g.rows.length; r++)
      for (let k = 0; k < g.cols.length; k++) {
        const at = g.at(r, k);
        if (!at.cell) continue;
        expect(at.inferred).toBe(at.cell.verdictInferred !== undefined);
        if (at.inferred) marked++;
      }
    expect(marked).toBeGreaterThan(0);
  });
});
