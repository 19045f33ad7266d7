// The checks' budget of work: counted steps, a time limit read from a clock passed in (no timer), and
// the runner turning a spent budget into "not evaluated: over budget" while the other checks still run.
import { describe, expect, it } from 'vitest';
import { OverBudgetError, spend, withBudget, WorkBudget } from '../../../analysis/budget.ts';
import { CHECKS, runChecks, type Check } from '../../../analysis/checks/index.ts';
import { build } from '../walk/helpers.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';

describe('WorkBudget', () => {
  it('refuses the step after the last one allowed', () => {
    const b = new WorkBudget({ maxSteps: 10 });
    b.spend(10);
    expect(() => b.spend()).toThrow(OverBudgetError);
    expect(() => new WorkBudget({ maxSteps: 10 }).spend(11)).toThrow(/more than 10 steps/);
  });

  it('reads the clock it is given at its counted steps', () => {
    let t = 0;
    const b = new WorkBudget({ maxSteps: 1e9, maxMs: 100, now: () => t });
    b.spend(5000);
    t = 101;
    // The clock is read every few thousand steps, not at each.
    b.spend(1);
    expect(() => b.spend(5000)).toThrow('over budget: more than 0.1 s of work');
  });

  it('counts spend() against the budget of the code running now, and nothing outside', () => {
    spend(1e12);
    const outer = new WorkBudget({ maxSteps: 100 });
    const inner = new WorkBudget({ maxSteps: 5 });
    withBudget(outer, () => {
      spend(50);
      expect(() => withBudget(inner, () => spend(6))).toThrow(OverBudgetError);
      spend(50);
    });
    expect(outer.spent).toBe(100);
    expect(inner.spent).toBe(6);
  });
});

describe('runChecks with budgets', () => {
  const { model } = build({ network: 'l2bridge', schema: 2 });
  const greedy: Check = { id: 'greedy', ids: ['greedy'], title: 'A greedy check', platforms: 'any', assumes: 'nothing', run: () => { for (;;) spend(1000); } };
  const broken: Check = { id: 'broken', ids: ['broken'], title: 'A broken check', platforms: 'any', assumes: 'nothing', run: () => { throw new Error('odd model'); } };

  it('reports a check that spends its budget as not evaluated, and runs the others', () => {
    const fs = runChecks(model, [greedy, broken, ...CHECKS], { maxSteps: 1e6 });
    const over = fs.find((f) => f.id === 'check-over-budget');
    expect(over).toMatchObject({ severity: 'info', undecided: true, title: 'A greedy check: not evaluated (over budget)', objects: ['greedy'] });
    expect(fs.find((f) => f.id === 'check-failed')?.objects).toEqual(['broken']);
    // The real checks still ran within the same budget each.
    expect(fs.filter((f) => f.id === 'ephemeral-ports-undecided')).toHaveLength(1);
  });

  it('stops a check on time with the clock passed in', () => {
    let t = 0;
    const slow: Check = { id: 'slow', ids: ['slow'], title: 'A slow check', platforms: 'any', assumes: 'nothing', run: () => { for (;;) { t += 1; spend(); } } };
    const fs = runChecks(model, [slow], { maxSteps: 1e12, maxMs: 1000, now: () => t });
    expect(fs[0]).toMatchObject({ id: 'check-over-budget', title: 'A slow check: not evaluated (over budget)' });
    expect(fs[0].explanation).toMatch(/stopped after 1 s of work/);
  });

  it('fits the real checks on a generated node within the default budget', () => {
    expect(runChecks(model).filter((f) => f.id === 'check-over-budget' || f.id === 'check-failed')).toEqual([]);
  });
});

describe('a walk within a budget', () => {
  it('counts the VFP rules it looks at, so a walk over a huge policy stops as "over budget"', () => {
    // A model of its own for each walk: compiled groups are cached per model.
    const fresh = () => build({ network: 'l2bridge', schema: 2 }).model;
    const model = fresh();
    const pods = (model.endpoints ?? []).filter((e) => !e.isRemote && e.ip);
    const flow = { srcIp: pods[0].ip!, dstIp: pods[1].ip!, dstPort: 80, proto: 'tcp' as const };
    const counted = new WorkBudget({ maxSteps: 1e9 });
    const ok = withBudget(counted, () => walkFlow(model, flow));
    expect(ok.verdict).not.toBe('unknown');
    expect(counted.spent).toBeGreaterThan(0);
    expect(() => withBudget(new WorkBudget({ maxSteps: counted.spent - 1 }), () => walkFlow(fresh(), flow))).toThrow(OverBudgetError);
  });
});
