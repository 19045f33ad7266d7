// The reachability worker starts once the node's checks have ended (issue #27 point 2: the findings'
// worker and the reachability worker never hold a node each at once, which set the server's peak), and
// the rows and columns the view shows meanwhile, worked out from the server's own node, are the ones
// the worker walks (services/backend/reach-ends.ts).
import { describe, expect, it } from 'vitest';
import { ReachSession } from '../../../services/backend/reach-session.ts';
import { reachEndsOf } from '../../../services/backend/reach-ends.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import type { FindingView } from '../../../analysis/findings/types.ts';

const DEMO = 'assets/demo/l2bridge-node';
import { DUALSTACK } from '../reach/models-v6.ts';

async function idle(s: ReachSession): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    if (!(await s.snapshot(1e9)).running) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the reachability never went idle');
}

describe('the reachability worker waits for the checks', () => {
  it('shows the rows at once, starts no worker while the checks run, then walks with their findings', async () => {
    const node = await loadBundle(DEMO);
    let endChecks: (f: FindingView[]) => void = () => undefined;
    const checks = new Promise<FindingView[]>((r) => (endChecks = r));
    let asked = 0;
    const s = new ReachSession('w1', undefined, { origin: diskOrigin(DEMO), reuse: [], findings: () => (asked++, checks), ends: () => reachEndsOf(node).ends, maxCells: 100_000, maxMs: 60_000 });
    try {
      const now = await s.snapshot(0, 0);
      expect(now.ready).toBe(true);
      expect(now.sources.length).toBeGreaterThan(0);
      expect(now.running).toBe(true);
      expect(asked).toBe(1);
      // A request while the checks run is kept for the worker, not a worker of its own.
      await s.compute([0], [0]);
      await new Promise((r) => setTimeout(r, 300));
      expect(s.workersStarted).toBe(0);
      expect(s.holdsNode).toBe(false);
      endChecks([]);
      await idle(s);
      expect(s.workersStarted).toBe(1);
      // The server's thread collected its garbage before the worker added its heap (heap-trim.ts).
      expect(s.lastCollectionMs).toBeGreaterThanOrEqual(0);
      const v = await s.snapshot();
      expect(v.cells.length).toBeGreaterThan(0);
      expect(v.cells.some((c) => c.s === 0 && c.d === 0) || v.sources[0].ip === v.destinations[0].ip).toBe(true);
    } finally {
      s.close();
    }
  }, 120_000);

  it('a node closed while the checks run starts no worker', async () => {
    const node = await loadBundle(DEMO);
    let endChecks: (f: FindingView[]) => void = () => undefined;
    const s = new ReachSession('w2', undefined, { origin: diskOrigin(DEMO), reuse: [], findings: () => new Promise((r) => (endChecks = r)), ends: () => reachEndsOf(node).ends, maxCells: 10, maxMs: 60_000 });
    expect((await s.snapshot(0, 0)).ready).toBe(true);
    s.close();
    endChecks([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.workersStarted).toBe(0);
  });

  it.each([DEMO, DUALSTACK, 'test/fixtures/foreign'])('the server node’s rows and columns are the worker’s (%s)', async (dir) => {
    const node = await loadBundle(dir);
    const own = reachEndsOf(node).ends;
    // Without `ends` the session shows the worker's, once it has read the node.
    const s = new ReachSession('w3', undefined, { origin: diskOrigin(dir), reuse: [], findings: async () => [], maxCells: 1, maxMs: 60_000 });
    try {
      let v = await s.snapshot(0, 60_000);
      for (let i = 0; i < 60 && !v.ready; i++) v = await s.snapshot(0, 60_000);
      expect(v.ready).toBe(true);
      expect({ sources: v.sources, destinations: v.destinations }).toEqual(own);
      expect(own.sources.length).toBeGreaterThan(0);
    } finally {
      s.close();
    }
  }, 120_000);
});
