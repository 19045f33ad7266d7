// A reach cell or class whose verdict rests on an inference says so (issue #25: "dropped" on an
// inference is never shown as plain fact): `verdictInferred` in JSON, a "*" after the verdict in the
// text tables with a note saying what it means, and "inferred" in the app's cell title. The host → Service
// and host → remote pod cells of a healthy overlay node (ws2022-overlay-2024) are the case that showed
// it: they were plain "dropped" (analysis/walk/README.md, "The host's own traffic on an overlay network").
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { reachMatrix, defaultDestinations, defaultSources, reachFrom, formatCells, formatClasses } from '../../../analysis/reach/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import type { WalkResult } from '../../../analysis/walk/types.ts';
import { reachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import { cellWords } from '../../../analysis/view-models/reach-view.ts';
import { loadBundle } from '../../../services/bundle/load.ts';

const HOST = '10.0.1.5';
const decidedByInference = (w: WalkResult) => {
  const h = w.hops[w.deciding];
  return !!h?.inferred && !h.alternatives?.length && h.effect?.kind !== 'lb';
};

describe('the reach matrix of a healthy overlay node (ws2022-overlay-2024)', async () => {
  const m = await loadBundle(path.resolve('test/fixtures/foreign/ws2022-overlay-2024'));
  const destinations = defaultDestinations(m);
  const cells = reachMatrix(m, destinations, { maxWalks: 20_000 });

  it('lists no host → Service or host → remote pod cell as dropped, and marks them inferred', () => {
    const host = cells.filter((c) => c.from === HOST && (c.to === '10.96.0.10' || c.to.startsWith('10.244.0.') || c.to.startsWith('10.244.1.')));
    expect(host.length).toBeGreaterThanOrEqual(3);
    for (const c of host) {
      expect({ to: `${c.to}:${c.port ?? ''}/${c.proto}`, verdict: c.verdict }).not.toEqual({ to: `${c.to}:${c.port ?? ''}/${c.proto}`, verdict: 'dropped' });
      expect(c.verdictInferred, `${c.to}:${c.port ?? ''}/${c.proto}`).toMatch(/encap not shown/);
    }
  });

  it('marks a single-walk cell exactly when its walk was decided by an inferred step', () => {
    let marked = 0;
    for (const c of cells) {
      if (c.verdicts) continue; // a Service whose backends differ: each backend walked (below)
      const w = walkFlow(m, { srcIp: c.from, dstIp: c.to, proto: c.proto, ...(c.port !== undefined ? { dstPort: c.port } : {}) }, { reply: true });
      expect({ cell: `${c.from} → ${c.to}:${c.port ?? ''}/${c.proto}`, inferred: c.verdictInferred !== undefined }).toEqual({ cell: `${c.from} → ${c.to}:${c.port ?? ''}/${c.proto}`, inferred: decidedByInference(w) });
      if (c.verdictInferred !== undefined) marked++;
    }
    expect(marked).toBeGreaterThan(0);
  });

  it('marks a Service cell when one backend\'s verdict rests on an inference', () => {
    for (const c of cells.filter((x) => x.verdicts)) {
      const any = c.verdicts!.some((v) => decidedByInference(walkFlow(m, { srcIp: c.from, dstIp: c.to, proto: c.proto, ...(c.port !== undefined ? { dstPort: c.port } : {}), dip: v.dip })));
      expect({ cell: `${c.from} → ${c.to}:${c.port}`, inferred: c.verdictInferred !== undefined }).toEqual({ cell: `${c.from} → ${c.to}:${c.port}`, inferred: any });
    }
  });

  it('the text table puts "*" after such a verdict, and says what it means', () => {
    const text = formatCells(cells, []);
    const rows = text.split('\n').filter((l) => l.startsWith(`${HOST} `) && l.includes('10.96.0.10:53/'));
    expect(rows.length).toBe(2);
    for (const r of rows) expect(r).toMatch(/ unknown\* /);
    expect(text).toMatch(/^\* the verdict rests on an inference/m);
    // An unmarked cell has no star.
    const plain = cells.find((c) => c.verdictInferred === undefined && c.verdict === 'delivered')!;
    expect(formatCells([plain], [])).not.toContain('*');
  });

  it('the app\'s cell title says the verdict is inferred', () => {
    const v = reachMatrixView(defaultSources(m), destinations, cells);
    const marked = v.cells.filter((c) => c.verdictInferred !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    expect(marked.length).toBe(cells.filter((c) => c.verdictInferred !== undefined).length);
    for (const c of marked) expect(cellWords(v, c)).toMatch(/: [a-z ]+ \(inferred\)\./);
    const plain = v.cells.find((c) => c.verdictInferred === undefined)!;
    expect(cellWords(v, plain)).not.toMatch(/inferred/);
  });

  it('the classes from the host carry the mark too', () => {
    const r = reachFrom(m, HOST, { maxWalks: 20_000 });
    const dns = r.classes.filter((c) => c.dst[0] === '10.96.0.10' && c.ports?.[0] === 53);
    expect(dns.length).toBe(2);
    for (const c of dns) {
      expect(c.verdict).toBe('unknown');
      expect(c.verdictInferred).toBeDefined();
    }
    expect(formatClasses(HOST, r.classes, [])).toMatch(/10\.96\.0\.10 +53 +unknown\*/);
  });
});
