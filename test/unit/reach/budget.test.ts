// Reach is bounded (issue #25 point 1): over its walk budget it stops walking, says so, and the cells
// it did not walk are "insufficient information" — the partition still covers the whole space.
import { describe, expect, it } from 'vitest';
import { reachFrom, reachMatrix, defaultDestinations, defaultSources } from '../../../analysis/reach/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { build } from '../walk/helpers.ts';
import { assertPartition } from './assert-partition.ts';

describe('reach budgets', () => {
  const { model } = build();
  const src = defaultSources(model)[0].ip;
  it('the partition stops at its walk budget and says so', () => {
    let walks = 0;
    const r = reachFrom(model, src, { maxWalks: 10, walk: (f) => (walks++, walkFlow(model, f, { reply: true })) });
    expect(walks).toBeLessThanOrEqual(10 + 8); // a cell started before the budget still walks its backends
    expect(r.budget.hit).toBe(true);
    expect(r.budget.note).toMatch(/budget of 10 walks/);
    expect(r.classes.some((c) => c.verdict === 'insufficient information' && /not walked/.test(c.reason))).toBe(true);
    assertPartition(r);
  });
  it('the matrix walks at most its budget of cells', () => {
    const cells = reachMatrix(model, defaultDestinations(model), { maxWalks: 5 });
    expect(cells.filter((c) => c.decidedAt !== 'not walked')).toHaveLength(5);
    expect(cells.filter((c) => c.decidedAt === 'not walked').every((c) => c.verdict === 'insufficient information')).toBe(true);
  });
});
