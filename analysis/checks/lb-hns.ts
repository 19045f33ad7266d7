// HNS load balancers: references to endpoints that exist nowhere (stale DIPs, seed Example #3:
// kube-proxy without --hostname-override deleting local endpoints) and load balancers HNS reports as
// failed or degraded.
import type { Finding } from '../inspect.ts';
import type { Check } from './types.ts';
import { withService } from '../k8s/index.ts';

const FIX_KP = 'kube-proxy owns these objects: restart it (`Restart-Service kube-proxy`, or delete the kube-proxy pod on HostProcess deployments) so it resyncs every service; check it runs with `--hostname-override` set to the node name (seed Example #3). If the stale object survives a resync, remove it with `Get-HnsPolicyList | Remove-HnsPolicyList` (schema v1) or `Get-HnsLoadBalancer | ? Id -eq <id> | Remove-HnsLoadBalancer` and restart kube-proxy again.';

export const lbHnsCheck: Check = {
  id: 'lb-hns',
  ids: ['lb-stale-dip', 'lb-degraded'],
  title: 'HNS load balancers',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    if (!m.loadBalancers || !m.endpoints) return out;
    // Endpoints read from a cut file, or only from the PS table, may be missing: say so instead of accusing.
    const epFile = m.meta.sources.endpoints?.[0];
    const cut = m.endpoints.some((e) => e.partial || e.fromTable) || m.files.some((f) => f.name === epFile && f.issues.some((i) => i.severity === 'error'));
    const lbs = new Map(m.loadBalancers.map((l) => [l.id, l]));
    for (const j of m.joins.loadBalancers) {
      if (!j.dangling.length) continue;
      const lb = lbs.get(j.loadBalancerId);
      if (!lb) continue;
      const p = lb.ports[0];
      const what = lb.vips.length ? withService(m, lb.vips[0], p?.externalPort, p?.protocol) : `(no VIP${p ? `, port ${p.externalPort}` : ''})`;
      out.push({
        id: 'lb-stale-dip',
        severity: cut ? 'warning' : 'error',
        area: 'lb',
        undecided: cut || undefined,
        title: `Load balancer ${what} references ${j.dangling.length} endpoint(s) that do not exist`,
        explanation: `HNS load balancer ${lb.id} sends part of the traffic for ${what} to endpoint(s) ${j.dangling.join(', ')}, which are in no endpoint list of the bundle. Their DIPs are stale: connections hashed to them go to an address with no pod and time out, so the service fails intermittently.${cut ? ` (${epFile ?? 'the endpoint file'} is cut or was read from its table only, so these endpoints may exist after the cut: check the full Get-HnsEndpoint output.)` : ''}`,
        fix: FIX_KP,
        objects: [lb.id, ...j.dangling, ...(lb.vips.length ? [what] : [])],
        // IDs come from the bundle: found by exact (case-insensitive) text, never as a regular expression.
        evidence: [ctx.ev(lb.src, lb.id, 200), ...j.dangling.slice(0, 3).map((d) => ctx.ev(lb.src, d, 400))],
        trace: lb.vips[0] && ctx.localPods[0]?.ip && p ? { srcIp: ctx.localPods[0].ip, dstIp: lb.vips[0], dstPort: p.externalPort, proto: p.protocol === 17 ? 'udp' : 'tcp' } : undefined,
      });
    }
    for (const lb of m.loadBalancers) {
      const raw = (lb.raw ?? {}) as Record<string, unknown>;
      const health = (raw.Health ?? raw.health) as Record<string, unknown> | undefined;
      const lastError = typeof health?.LastErrorCode === 'number' ? health.LastErrorCode : 0;
      const state = typeof lb.state === 'string' ? lb.state : '';
      const degraded = /degrad|fail|error|invalid/i.test(state);
      if (!degraded && !lastError) continue;
      const p = lb.ports[0];
      const what = lb.vips.length ? withService(m, lb.vips[0], p?.externalPort, p?.protocol) : lb.id;
      out.push({
        id: 'lb-degraded',
        severity: degraded ? 'error' : 'warning',
        area: 'lb',
        title: `Load balancer ${what} is ${degraded ? `in state ${state}` : `reporting error ${lastError}`}`,
        explanation: degraded
          ? `HNS reports load balancer ${lb.id} as ${state}: its VFP rules may be missing or half-programmed, so ${what} does not load-balance reliably.`
          : `HNS recorded error ${lastError} (0x${(lastError >>> 0).toString(16)}) the last time it updated load balancer ${lb.id}; the policy may not be fully applied.`,
        fix: FIX_KP,
        objects: [lb.id, what],
        evidence: [degraded ? ctx.ev(lb.src, /"State"/i, 400) : ctx.ev(lb.src, /LastErrorCode/i, 400)],
      });
    }
    return out;
  },
};
