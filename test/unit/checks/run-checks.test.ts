// The runner: a check that throws becomes one finding saying so while the others still report, and
// the progress it gives advances check by check to the end.
import { describe, expect, it } from 'vitest';
import { build } from '../walk/helpers.ts';
import { CHECKS, DEFAULT_BUDGET, runChecks, type Check } from '../../../analysis/checks/index.ts';

describe('runChecks', () => {
  const { model } = build({ network: 'l2bridge', schema: 2, faults: ['exception-list-typo'] });

  it('a failing check shows its error and the others still report', () => {
    const broken: Check = { id: 'broken', ids: [], title: 'Broken', platforms: 'any', assumes: 'nothing', run: () => { throw new Error('odd model: no ports table'); } };
    const fs = runChecks(model, [CHECKS[0], broken, ...CHECKS.slice(1)]);
    const failed = fs.filter((f) => f.id === 'check-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].title).toMatch(/broken/);
    expect(failed[0].explanation).toMatch(/odd model: no ports table/);
    // The same findings as without the broken check, plus the one that says it failed.
    expect(fs.filter((f) => f.id !== 'check-failed')).toEqual(runChecks(model));
    expect(fs.some((f) => f.severity === 'error')).toBe(true);
  });

  it('reports progress check by check, ending with all done', () => {
    const seen: { done: number; total: number; check?: string }[] = [];
    runChecks(model, CHECKS, DEFAULT_BUDGET, { onProgress: (p) => seen.push(p) });
    const total = seen[0].total;
    expect(total).toBeGreaterThan(3);
    expect(seen.map((p) => p.done)).toEqual([...Array(total + 1).keys()]);
    expect(seen.slice(0, -1).every((p) => p.check)).toBe(true);
    expect(seen.at(-1)).toEqual({ done: total, total });
  });
});
