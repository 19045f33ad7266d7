// The WS2019 l2bridge fixture's host → ClusterIP cells were "dropped*" (issue #25's open question).
// Settled from the sources (analysis/walk/host-vip-limit.ts): on Windows Server 2019 the node itself
// cannot reach a Service VIP — Microsoft's "Troubleshooting Kubernetes Networking on Windows: Part 1"
// (2019) and kubernetes.io's Windows debugging tips say so — so the cells are "dropped", a documented
// limitation, without the inference mark, in JSON and in the text table, and say why.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { defaultDestinations, formatCells, reachMatrix } from '../../../analysis/reach/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';

const HOST = '192.168.30.21';

describe('host → Service cells on the WS2019 flannel host-gw fixture', async () => {
  const m = await loadBundle(path.resolve('test/fixtures/foreign/ws2019-flannel-l2bridge-2020'));
  const destinations = defaultDestinations(m);
  const cells = reachMatrix(m, destinations, { maxWalks: 20_000 });
  const host = cells.filter((c) => c.from === HOST && /^10\.(96|99|102|108|110)\./.test(c.to));

  it('are dropped, not marked inferred, and name the limitation', () => {
    expect(host.length).toBeGreaterThanOrEqual(8);
    for (const c of host) {
      const id = `${c.to}:${c.port}/${c.proto}`;
      expect({ id, verdict: c.verdict, inferred: c.verdictInferred }).toEqual({ id, verdict: 'dropped', inferred: undefined });
      expect(c.reason, id).toMatch(/Windows Server 2019/);
    }
  });

  it('the text table shows "dropped" without the mark on those rows', () => {
    const rows = formatCells(cells, []).split('\n').filter((l) => l.startsWith(`${HOST} `) && /10\.96\.0\.10:53\//.test(l));
    expect(rows.length).toBe(2);
    for (const r of rows) expect(r).toMatch(/\bdropped\s/);
  });
});
