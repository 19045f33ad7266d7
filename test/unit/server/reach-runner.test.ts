// The reachability matrix as the backend works it out: in a worker thread, progress per source, the
// demo's faults as non-delivered cells, a run that can be stopped, and a cancel that is not a close.
import { describe, expect, it } from 'vitest';
import { runReach, ReachCancelled } from '../../../services/backend/reach-runner.ts';
import { BundleStepRunner } from '../../../services/backend/bundle-step-runner.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import type { StepProgress } from '../../../services/backend/bundle-step-runner.ts';
import type { ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';

const DEMO = 'assets/demo/l2bridge-node';

describe('reach runner', () => {
  it('answers the default matrix of the demo in a worker, with progress as it goes', async () => {
    const progress: StepProgress[] = [];
    const run = runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: 100_000, maxMs: 60_000 }, Promise.resolve([]), (p) => progress.push(p));
    const v = await run.done;
    expect(v.sources.some((s) => s.kind === 'host')).toBe(true);
    expect(v.destinations.some((d) => d.kind === 'outside')).toBe(true);
    // Every source's row is worked out on the demo (small), and every cell names a valid source and destination.
    expect(new Set(v.cells.map((c) => c.s)).size).toBe(v.sources.length);
    for (const c of v.cells) expect(v.sources[c.s] && v.destinations[c.d]).toBeTruthy();
    // The demo's OutBoundNAT typo and missing vNIC: some cells are not delivered.
    expect(v.cells.some((c) => c.verdict !== 'delivered' && c.verdict !== 'forwarded')).toBe(true);
    expect(progress.filter((p) => p.total > 0).length).toBeGreaterThan(1);
  }, 120_000);

  it('a cell bound stops the walks and says so', async () => {
    const v = await runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: 5, maxMs: 60_000 }, Promise.resolve([]), () => undefined).done;
    expect(v.cells.length).toBeLessThanOrEqual(5);
    expect(v.notes.join(' ')).toMatch(/Worked out \d+ of \d+ cells.*at most 5 cells/);
  }, 120_000);

  it('every source meets the pods, remote subnets, node and outside before any Service', async () => {
    const whole = await runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: 100_000, maxMs: 60_000 }, Promise.resolve([]), () => undefined).done;
    const cheap = whole.cells.filter((c) => whole.destinations[c.d].kind !== 'service').length;
    const v = await runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: cheap, maxMs: 60_000 }, Promise.resolve([]), () => undefined).done;
    // Every cheap cell is there (a source is not walked to its own address, so a few Service cells may follow).
    expect(v.cells.filter((c) => v.destinations[c.d].kind !== 'service').length).toBe(cheap);
    expect(v.cells.length).toBeLessThanOrEqual(cheap);
    expect(new Set(v.cells.map((c) => c.s)).size).toBe(v.sources.length);
  }, 120_000);

  it('a time bound stops between slices of destinations, not after a whole source', async () => {
    const v = await runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: 100_000, maxMs: 0 }, Promise.resolve([]), () => undefined).done;
    // The first slice is walked before the clock is looked at again.
    expect(v.cells.length).toBeGreaterThan(0);
    expect(v.cells.length).toBeLessThanOrEqual(32);
    expect(v.notes.join(' ')).toMatch(/the view stops after 0 s of walks/);
  }, 120_000);

  it('a cancelled run rejects, and the step can be asked for again', async () => {
    let runs = 0;
    const step = new BundleStepRunner<ReachMatrixView>('b1', 'reach', undefined, (p) => {
      runs++;
      return runReach({ origin: diskOrigin(DEMO), reuse: [], maxCells: 100_000, maxMs: 60_000 }, Promise.resolve([]), p);
    });
    const first = step.get();
    step.cancel();
    await expect(first).rejects.toBeInstanceOf(ReachCancelled);
    expect(step.state.state).toBe('error');
    const again = await step.get();
    expect(again.cells.length).toBeGreaterThan(0);
    expect(runs).toBe(2);
  }, 120_000);
});
