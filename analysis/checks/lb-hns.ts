// HNS load balancers: references to endpoints that exist nowhere (stale DIPs; the Windows
// troubleshooting guide's services example: kube-proxy without --hostname-override deleting local
// endpoints) and load balancers HNS reports as failed or degraded. Whether a stale reference breaks
// traffic is read from VFP: only a DIP VFP still load-balances to black-holes connections.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { withService } from '../k8s/index.ts';
import { vfpLbDips } from './vfp-lb-dips.ts';
import { plural } from '../../parsers/text/quantities.ts';

const FIX_KP = 'kube-proxy owns these objects: restart it (`Restart-Service kube-proxy`, or delete the kube-proxy pod on HostProcess deployments) so it resyncs every service; check it runs with `--hostname-override` set to the node name (without it, kube-proxy can delete the endpoints of this node). If the stale object survives a resync, remove it with `Get-HnsPolicyList | Remove-HnsPolicyList` (schema v1) or `Get-HnsLoadBalancer | ? Id -eq <id> | Remove-HnsLoadBalancer` and restart kube-proxy again.';

export const lbHnsCheck: Check = {
  id: 'lb-hns',
  ids: ['lb-stale-dip', 'lb-degraded'],
  title: 'HNS load balancers',
  platforms: 'any',
  assumes: 'an HNS load balancer only references endpoints that exist',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    if (!m.loadBalancers || !m.endpoints) return out;
    // Endpoints read from a cut file, or only from the PS table, may be missing: say so instead of accusing.
    const epFile = m.meta.sources.endpoints?.[0];
    const cut = m.endpoints.some((e) => e.partial || e.fromTable) || m.files.some((f) => f.name === epFile && f.issues.some((i) => i.severity === 'error'));
    const lbs = new Map(m.loadBalancers.map((l) => [l.id, l]));
    const epIps = new Set(m.endpoints.flatMap((e) => [e.ip, e.ipv6]).filter((x): x is string => !!x));
    for (const j of m.joins.loadBalancers) {
      if (!j.dangling.length) continue;
      const lb = lbs.get(j.loadBalancerId);
      if (!lb) continue;
      const p = lb.ports[0];
      const vip = lb.vips[0];
      const what = vip !== undefined ? withService(m, vip, p?.externalPort, p?.protocol) : `(no VIP${p ? `, port ${p.externalPort}` : ''})`;
      // What VFP does with the traffic: the DIPs of this load balancer's rule on the pod ports.
      const vfp = vip !== undefined && p ? vfpLbDips(ctx, vip, p.externalPort, p.protocol) : undefined;
      const staleInVfp = vfp ? vfp.ips.filter((ip) => !epIps.has(ip)) : [];
      const harmless = !!vfp && !staleInVfp.length;
      const effect = vfp
        ? staleInVfp.length
          ? `VFP's rule on port ${vfp.port} still sends to ${staleInVfp.join(', ')}, which no endpoint has: connections hashed there go to an address with no pod and time out, so the service fails intermittently.`
          : `VFP's rule on port ${vfp.port} sends only to ${vfp.ips.join(', ') || 'no backend'}, all endpoints of this bundle: no connection is black-holed now, but the HNS load balancer is out of date (kube-proxy did not clean it up).`
        : `If VFP still holds their DIPs, connections hashed to them go to an address with no pod and time out; the bundle has ${m.vfp ? 'no load-balancing rule for it on the pod ports' : 'no VFP rules'} to tell.`;
      out.push({
        id: 'lb-stale-dip',
        severity: cut || harmless ? 'warning' : 'error',
        area: 'lb',
        undecided: cut || undefined,
        // A cut endpoint file cannot say the endpoints do not exist: the title says no more than the text.
        title: cut
          ? `Load balancer ${what} references ${plural(j.dangling.length, 'endpoint')} not in the cut endpoint list`
          : `Load balancer ${what} references ${plural(j.dangling.length, 'endpoint')} that ${j.dangling.length === 1 ? 'does' : 'do'} not exist`,
        explanation: `HNS load balancer ${lb.id} lists ${j.dangling.length === 1 ? 'endpoint' : 'endpoints'} ${j.dangling.join(', ')} for ${what}, which ${j.dangling.length === 1 ? 'is' : 'are'} in no endpoint list of the bundle. ${effect}${cut ? ` (${epFile ?? 'the endpoint file'} is cut or was read from its table only, so these endpoints may exist after the cut: check the full Get-HnsEndpoint output.)` : ''}`,
        fix: FIX_KP,
        objects: [lb.id, ...j.dangling, ...(lb.vips.length ? [what] : [])],
        // IDs come from the bundle: found by exact (case-insensitive) text, never as a regular expression.
        evidence: [ctx.ev(lb.src, lb.id, 200), ...j.dangling.slice(0, 3).map((d) => ctx.ev(lb.src, d, 400)), ...(vfp ? [ctx.ev(vfp.src, staleInVfp[0] ?? /DIP Range/i, 40)] : [])],
        trace: lb.vips[0] && ctx.traceSource(ctx.localPods)?.ip && p ? { srcIp: ctx.traceSource(ctx.localPods)!.ip!, dstIp: lb.vips[0], dstPort: p.externalPort, proto: p.protocol === 17 ? 'udp' : 'tcp' } : undefined,
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
      const vip = lb.vips[0];
      const what = vip !== undefined ? withService(m, vip, p?.externalPort, p?.protocol) : lb.id;
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
