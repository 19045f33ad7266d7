// The reachability matrix as the backend works it out (reach-session.ts): in a worker thread, the
// sources and destinations first, then the cells progressively (a snapshot `from` a count gives only
// what is new), a first pass bounded in cells and time that says what it left out, cells asked for
// later that go first, a Cancel that drops what is queued and keeps what is worked out.
import { describe, expect, it } from 'vitest';
import { ReachSession } from '../../../services/backend/reach-session.ts';
import { firstPass } from '../../../services/backend/reach-protocol.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { EventBus } from '../../../services/backend/event-bus.ts';
import type { ApiEvent } from '../../../contract/index.ts';

const DEMO = 'assets/demo/l2bridge-node';
const session = (maxCells: number, maxMs: number, events?: EventBus) => new ReachSession('b1', events, { origin: diskOrigin(DEMO), reuse: [], findings: async () => [], maxCells, maxMs });

/** The first ready snapshot (a node being read answers "not ready" first). */
async function ready(s: ReachSession, from = 0) {
  for (let i = 0; i < 60; i++) {
    const v = await s.snapshot(from);
    if (v.ready) return v;
  }
  throw new Error('the sources and destinations never came');
}

async function idle(s: ReachSession): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    if (!(await s.snapshot(1e9)).running) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the reachability never went idle');
}

describe('reach session', () => {
  it('the first pass meets every source against the pods, subnets, node and outside before any Service', () => {
    const p = firstPass(3, ['pod', 'service', 'outside', 'service']);
    expect(p).toEqual([
      { s: 0, d: [0, 2] },
      { s: 1, d: [0, 2] },
      { s: 2, d: [0, 2] },
      { s: 0, d: [1, 3] },
      { s: 1, d: [1, 3] },
      { s: 2, d: [1, 3] },
    ]);
  });

  it('answers at once that it is not ready while the node is read, then the sources and destinations', async () => {
    const s = session(100_000, 60_000);
    try {
      const now = await s.snapshot(0, 0);
      expect(now).toMatchObject({ ready: false, running: true, sources: [], cells: [] });
      expect((await ready(s)).sources.length).toBeGreaterThan(0);
    } finally {
      s.close();
    }
  }, 120_000);

  it('works out the demo progressively: every row, the faults, snapshots that give only what is new', async () => {
    const events = new EventBus();
    const seen: ApiEvent[] = [];
    events.on((e) => seen.push(e));
    const s = session(100_000, 60_000, events);
    try {
      const first = await ready(s);
      expect(first.sources.some((x) => x.kind === 'host')).toBe(true);
      expect(first.destinations.some((d) => d.kind === 'outside')).toBe(true);
      await idle(s);
      const v = await s.snapshot();
      expect(v.running).toBe(false);
      expect(v.count).toBe(v.cells.length);
      expect(new Set(v.cells.map((c) => c.s)).size).toBe(v.sources.length);
      for (const c of v.cells) expect(v.sources[c.s] && v.destinations[c.d]).toBeTruthy();
      // Each cell once.
      expect(new Set(v.cells.map((c) => `${c.s}:${c.d}`)).size).toBe(v.cells.length);
      expect(v.cells.some((c) => c.verdict !== 'delivered' && c.verdict !== 'forwarded')).toBe(true);
      // A snapshot from a count gives the cells after it, no more.
      const tail = await s.snapshot(v.count - 3);
      expect(tail.from).toBe(v.count - 3);
      expect(tail.cells).toEqual(v.cells.slice(-3));
      const steps = seen.filter((e) => e.type === 'step' && e.job.step === 'reach').map((e) => e.job as { state: string; progress?: { total: number } });
      expect(steps.filter((j) => j.progress && j.progress.total > 0).length).toBeGreaterThan(1);
      expect(s.state.state).toBe('done');
    } finally {
      s.close();
    }
  }, 120_000);

  it('a cell bound stops the first pass and says so; a cell asked for is then worked out', async () => {
    const s = session(5, 60_000);
    try {
      await ready(s);
      await idle(s);
      const v = await s.snapshot();
      expect(v.cells.length).toBeLessThanOrEqual(5);
      expect(v.notes.join(' ')).toMatch(/Worked out \d+ of \d+ cells: the first pass stops after at most 5 cells.*Enter/);
      // A Service cell of the last source was certainly not worked out: ask for it.
      const d = v.destinations.findIndex((x) => x.kind === 'service');
      const src = v.sources.length - 1;
      expect(v.cells.some((c) => c.s === src && c.d === d)).toBe(false);
      expect((await s.compute([src], [d])).queued).toBe(1);
      await idle(s);
      const after = await s.snapshot(v.count);
      expect(after.cells.map((c) => `${c.s}:${c.d}`)).toEqual([`${src}:${d}`]);
    } finally {
      s.close();
    }
  }, 120_000);

  it('a time bound stops between slices of destinations, not after a whole source', async () => {
    const s = session(100_000, 0);
    try {
      await ready(s);
      await idle(s);
      const v = await s.snapshot();
      expect(v.cells.length).toBeGreaterThan(0);
      expect(v.cells.length).toBeLessThanOrEqual(32);
      expect(v.notes.join(' ')).toMatch(/the first pass stops after 0 s of walks/);
    } finally {
      s.close();
    }
  }, 120_000);

  it('Cancel drops what is queued, keeps what is worked out, and says so', async () => {
    const s = session(100_000, 60_000);
    try {
      await ready(s);
      s.cancel();
      await idle(s);
      const v = await s.snapshot();
      const whole = v.sources.length * v.destinations.length;
      expect(v.cells.length).toBeLessThan(whole - v.sources.length);
      expect(v.notes.join(' ')).toMatch(/Stopped: worked out \d+ of the \d+ cells of the first pass/);
    } finally {
      s.close();
    }
  }, 120_000);

  it('an idle worker lets its node go; cells asked later start a worker again that walks only those (issue #27 point 2)', async () => {
    const kept = session(4, 60_000);
    const let_go = new ReachSession('b2', undefined, { origin: diskOrigin(DEMO), reuse: [], findings: async () => [], maxCells: 4, maxMs: 60_000, releaseAfterMs: 50 });
    try {
      const rows = await Promise.all([kept, let_go].map(async (s) => {
        const v = await ready(s);
        await idle(s);
        return { s, v, first: (await s.snapshot()).cells };
      }));
      // The default keeps the node a while (cells asked soon start at once); a short time lets it go.
      expect(kept.holdsNode).toBe(true);
      for (let i = 0; i < 200 && let_go.holdsNode; i++) await new Promise((r) => setTimeout(r, 25));
      expect(let_go.holdsNode).toBe(false);
      // Still answered without a worker: what was worked out stays.
      expect((await let_go.snapshot()).cells).toEqual(rows[1].first);
      expect(let_go.workersStarted).toBe(1);
      // Every cell of the first source, asked of both: the second session starts a worker again.
      const { v } = rows[0];
      const all = v.destinations.map((_, d) => d);
      for (const { s } of rows) {
        await s.compute([0], all);
        await idle(s);
      }
      expect(kept.workersStarted).toBe(1);
      expect(let_go.workersStarted).toBe(2);
      const key = (c: { s: number; d: number }) => `${c.s}:${c.d}`;
      const [a, b] = await Promise.all([kept, let_go].map(async (s) => (await s.snapshot()).cells));
      // No cell walked twice: the worker started again was told which were done.
      expect(new Set(b.map(key)).size).toBe(b.length);
      // The same cells and outcomes as the session that kept its node.
      const byKey = (cells: typeof a) => Object.fromEntries(cells.map((c) => [key(c), c]));
      expect(byKey(b)).toEqual(byKey(a));
      expect(b.filter((c) => c.s === 0).length).toBeGreaterThan(rows[1].first.filter((c) => c.s === 0).length);
    } finally {
      kept.close();
      let_go.close();
    }
  }, 180_000);

  it('a request names cells by index: indexes beyond the node’s are left out', async () => {
    const s = session(1, 60_000);
    try {
      const v = await ready(s);
      const many = Array.from({ length: 20_000 }, (_, i) => i);
      expect((await s.compute([0, 0, 1e6], many)).queued).toBe(v.destinations.length);
    } finally {
      s.close();
    }
  }, 120_000);
});
