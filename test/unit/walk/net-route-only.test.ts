// A routes.txt saved by hand with only `Get-NetRoute` (no `route print`; the corpus holds one from
// kubernetes-sigs/sig-windows-tools#215) is the node's route table: the walk follows its rows, IPv4 and
// IPv6, with RouteMetric + ifMetric as the metric Windows ranks them by. Before, the walk read only route
// print's rows: every packet leaving the node was "dropped: no route" (IPv4) or "routes.txt lists no IPv6
// route" (IPv6) although the file listed both default routes. The same node's route print gives the same
// verdicts and next hops.
import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { DUALSTACK } from '../reach/models-v6.ts';

// The dual-stack base's route print (test/fixtures/walk-scenarios/bases/dualstack-l2bridge/routes.txt)
// written as Get-NetRoute prints it: the metric split into RouteMetric and ifMetric (their sum is route
// print's), on-link as 0.0.0.0 / ::.
const NET_ROUTE = `PS C:\\> Get-NetRoute

ifIndex DestinationPrefix                              NextHop                                  RouteMetric ifMetric PolicyStore
------- -----------------                              -------                                  ----------- -------- -----------
6       ff00::/8                                       ::                                               256 15       ActiveStore
6       fe80::/64                                      ::                                               256 15       ActiveStore
6       fd00:10:244:6::/64                             fd00:10::16                                      256 15       ActiveStore
6       fd00:10::15/128                                ::                                               256 15       ActiveStore
6       fd00:10::/64                                   ::                                               256 15       ActiveStore
6       ::/0                                           fd00:10::1                                       256 15       ActiveStore
1       ::1/128                                        ::                                               256 75       ActiveStore
6       10.244.6.0/24                                  10.0.0.16                                        256 15       ActiveStore
6       10.0.0.255/32                                  0.0.0.0                                          256 15       ActiveStore
6       10.0.0.15/32                                   0.0.0.0                                          256 15       ActiveStore
6       10.0.0.0/24                                    0.0.0.0                                          256 15       ActiveStore
6       0.0.0.0/0                                      10.0.0.1                                         0   15       ActiveStore
1       127.0.0.0/8                                    0.0.0.0                                          256 75       ActiveStore
`;

function withNetRouteOnly(routes = NET_ROUTE): string {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'hnsight-netroute-')), 'dualstack-netroute');
  mkdirSync(out);
  for (const f of readdirSync(DUALSTACK)) if (f !== 'routes.txt') copyFileSync(path.join(DUALSTACK, f), path.join(out, f));
  writeFileSync(path.join(out, 'routes.txt'), routes);
  return out;
}

// A persistent default route (what `route -p add` or a New-NetRoute saved), listed below the active
// rows as Get-NetRoute prints both stores: its blank ifMetric made its metric the lowest.
const PERSISTENT = `${NET_ROUTE}6       0.0.0.0/0                                      10.0.0.99                                        0            PersistentStore
`;

const FLOWS = [
  { srcIp: '10.244.5.10', dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' as const },
  { srcIp: '10.244.5.10', dstIp: '10.244.6.7', dstPort: 8080, proto: 'tcp' as const },
  { srcIp: 'fd00:10:244:5::a', dstIp: '2606:2800:220:1:248:1893:25c8:1946', dstPort: 443, proto: 'tcp' as const },
  { srcIp: 'fd00:10:244:5::a', dstIp: 'fd00:10:244:6::7', dstPort: 8080, proto: 'tcp' as const },
];

describe('a routes.txt holding only Get-NetRoute', () => {
  it('is the route table: the same verdicts and next hops as the route print of the same node', async () => {
    const [printed, listed] = await Promise.all([loadBundle(DUALSTACK), loadBundle(withNetRouteOnly())]);
    expect(listed.routes?.netRoutes.length).toBe(13);
    expect(listed.routes?.ipv4Active.length).toBe(0);
    for (const f of FLOWS) {
      const a = walkFlow(printed, f);
      const b = walkFlow(listed, f);
      const label = `${f.srcIp} → ${f.dstIp}`;
      expect(b.verdict, label).toBe(a.verdict);
      expect(['forwarded', 'delivered'], label).toContain(b.verdict);
      const route = (w: typeof a) => w.hops.find((h) => h.kind === 'host-route')?.action;
      expect(route(b), label).toBe(route(a));
      // The interface is named by the node's address (its on-link /32 row), as route print names it.
      expect(b.egress, label).toEqual(a.egress);
      expect(`${b.reason} ${b.hops.map((h) => `${h.action} ${h.note ?? ''}`).join(' ')}`, label).not.toMatch(/undefined|interface \?/);
    }
  });

  it('routes by the active store: a persistent row is what the node would program at its next start', async () => {
    const [printed, listed] = await Promise.all([loadBundle(DUALSTACK), loadBundle(withNetRouteOnly(PERSISTENT))]);
    expect(listed.routes?.netRoutes.length).toBe(14);
    const f = FLOWS[0]!;
    const a = walkFlow(printed, f);
    const b = walkFlow(listed, f);
    expect(b.egress?.nextHop).toBe('10.0.0.1');
    expect(b.egress).toEqual(a.egress);
  });
});
