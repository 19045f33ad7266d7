// The app's Reachability matrix on a dual-stack node (issue #25 point 2, IPv6): the backend's worker
// (reach-session.ts, reach-worker-main.ts) lists the IPv6 address of every pod and of the host as
// sources and the IPv6 default destinations (analysis/reach/v6/sources6.ts), walks each IPv6 source
// against each IPv6 destination and never a pair of two families, and every IPv6 cell has the verdict,
// deciding rule and reply that `hnsight reach --to` gives for the same pair. The view model groups the
// IPv6 rows and columns apart ("IPv6 pods · …") and does not count the cells between families as
// cells to work out.
import { describe, expect, it } from 'vitest';
import { REACH_NOTE_V6, ReachSession } from '../../../services/backend/reach-session.ts';
import { diskOrigin } from '../../../services/bundle/origin.ts';
import { reachGrid } from '../../../analysis/view-models/reach-view.ts';
import { runCli } from '../../helpers/cli.ts';
import { DUALSTACK } from '../reach/models-v6.ts';

describe('the reach session on a dual-stack node', () => {
  it('walks the IPv6 sources against the IPv6 destinations, as reach --to does', async () => {
    const s = new ReachSession('b6', undefined, { origin: diskOrigin(DUALSTACK), reuse: [], findings: async () => [], maxCells: 100_000, maxMs: 120_000 });
    try {
      let v = await s.snapshot();
      for (let i = 0; i < 2400 && (!v.ready || v.running); i++) {
        await new Promise((r) => setTimeout(r, 50));
        v = await s.snapshot();
      }
      expect(v.ready && !v.running).toBe(true);
      expect(v.notes).toContain(REACH_NOTE_V6);
      const src6 = v.sources.flatMap((x, i) => (x.family === 6 ? [i] : []));
      const dst6 = v.destinations.flatMap((x, i) => (x.family === 6 ? [i] : []));
      expect(src6.length).toBeGreaterThan(1);
      expect(v.sources.some((x) => x.family === 6 && x.kind === 'host')).toBe(true);
      expect(dst6.length).toBeGreaterThan(3);
      for (const i of src6) expect(v.sources[i].ip).toContain(':');
      for (const i of dst6) expect(v.destinations[i].ip).toContain(':');
      // Never a pair of two families; every IPv6 source against every IPv6 destination but its own address.
      for (const c of v.cells) expect(v.sources[c.s].family).toBe(v.destinations[c.d].family);
      const cells6 = v.cells.filter((c) => v.sources[c.s].family === 6);
      const want = src6.flatMap((si) => dst6.filter((di) => v.destinations[di].ip !== v.sources[si].ip).map((di) => `${si}:${di}`));
      expect(cells6.map((c) => `${c.s}:${c.d}`).sort()).toEqual(want.sort());
      // The same verdicts as `hnsight reach --to` gives, for the same destinations.
      const tos = dst6.map((di) => {
        const d = v.destinations[di];
        return d.proto === 'icmp' || d.port === undefined ? `${d.ip}/icmp` : `[${d.ip}]:${d.port}/${d.proto}`;
      });
      const r = await runCli('reach', DUALSTACK, ...tos.flatMap((t) => ['--to', t]), '--no-findings', '--json');
      const cli = new Map<string, { verdict: string; decidingRule: string | null; reply: { verdict: string } | null }>((JSON.parse(r.stdout).cells as { from: string; to: string; port?: number; proto: string; verdict: string; decidingRule: string | null; reply: { verdict: string } | null }[]).map((c) => [`${c.from}>${c.to}|${c.port ?? ''}|${c.proto}`, c]));
      for (const c of cells6) {
        const src = v.sources[c.s];
        const d = v.destinations[c.d];
        const k = `${src.ip}>${d.ip}|${d.proto === 'icmp' ? '' : (d.port ?? '')}|${d.proto}`;
        const x = cli.get(k);
        expect(x, k).toBeDefined();
        expect({ verdict: c.verdict, decidingRule: c.decidingRule, reply: c.reply }, k).toEqual({ verdict: x!.verdict, decidingRule: x!.decidingRule, reply: x!.reply?.verdict ?? null });
      }
      // The view: IPv6 rows and columns in groups of their own; the cells between families are not "to work out".
      const g = reachGrid(v, { kind: 'all' }, new Set());
      expect(g.rows.some((l) => l.type === 'group' && /^IPv6 pods/.test(l.label))).toBe(true);
      expect(g.cols.some((l) => l.type === 'group' && /^IPv6 /.test(l.label))).toBe(true);
      const r6 = g.rows.findIndex((l) => l.type === 'end' && v.sources[l.index].family === 6);
      const c4 = g.cols.findIndex((l) => l.type === 'end' && v.destinations[l.index].family !== 6);
      expect(g.at(r6, c4)).toMatchObject({ missing: 0, tone: 'none' });
      expect(g.at(r6, c4).label).toMatch(/different families/);
      for (let k = 0; k < g.cols.length; k++) expect(g.at(r6, k).missing, g.at(r6, k).label).toBe(0);
    } finally {
      s.close();
    }
  }, 240_000);
});
