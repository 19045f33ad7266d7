// OutBoundNAT ExceptionList: typos (`10.244.0.0/0` for a /16, the Windows troubleshooting guide's
// example) and missing pod/service ranges.
// Destinations in the list are reached with the pod's own IP; everything else is SNATed to the node.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { covers, intToIp, ipNum, ipRange, rangeText, type CheckContext, type Range } from './context.ts';
import { parseCidr } from '../../parsers/net/ip.ts';
import { pluginsWhere } from '../platform/index.ts';
import { plural } from '../../parsers/text/quantities.ts';

/** Evidence lines per finding: one per endpoint concerned, bounded for a node of thousands of pods. */
const MAX_EVIDENCE = 50;

export interface ExceptionProblem {
  severity: 'error' | 'warning';
  why: string;
}

/** What is wrong with one ExceptionList entry, if anything (shared with the CNI config check). */
export function exceptionProblem(value: string): ExceptionProblem | undefined {
  const c = parseCidr(value);
  if (!c) return { severity: 'error', why: `"${value}" is not a valid CIDR; HNS/VFP cannot turn it into an exception range` };
  if (c.family !== 'ipv4') return undefined;
  if (c.prefixLength === 0) return { severity: 'error', why: `"${value}" has prefix length 0: it matches every IPv4 destination, so nothing is SNATed to the node IP and pods cannot reach anything outside the cluster (a typo: 10.244.0.0/0 written for 10.244.0.0/16)` };
  if (c.prefixLength < 8) return { severity: 'error', why: `"${value}" (/${c.prefixLength}) exempts ${rangeText(ipRange(value)!)} from SNAT — far more than a cluster range, so traffic to those outside addresses leaves with the pod IP and gets no reply` };
  if (c.first !== c.address) return { severity: 'warning', why: `"${value}" has host bits set; it means ${c.first}/${c.prefixLength}, which is probably not what was intended` };
  return undefined;
}

const FIX_CNI = 'Correct the OutBoundNAT ExceptionList in the CNI config (C:\\k\\cni\\config\\*.conf / the flannel or Azure CNI `AdditionalArgs`/`policies` EndpointPolicy): it must list the cluster (pod) CIDR, the service CIDR and, on l2bridge, the node subnet, each as a proper CIDR. Existing endpoints keep the old list: recreate the pods (or drain the node and restart kubelet/containerd) so the CNI creates their endpoints again, then verify with `Get-HnsEndpoint | ConvertTo-Json -Depth 10` and `vfpctrl /port <port> /layer SLB_NAT_LAYER /list-rule`.';

export const outboundNatCheck: Check = {
  id: 'outboundnat',
  ids: ['outboundnat-exception-typo', 'outboundnat-exception-missing', 'outboundnat-undecided'],
  title: 'OutBoundNAT ExceptionList',
  platforms: pluginsWhere((f) => f.outboundNat.used),
  assumes: 'pods leave the node through an HNS OutBoundNAT policy whose ExceptionList keeps pod-to-pod traffic un-NATed (not Antrea: WinNAT; OVN-Kubernetes: only the service CIDR is exempted)',
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    if (!m.endpoints) {
      out.push(undecided(ctx, 'no endpoint.txt (Get-HnsEndpoint) in the bundle, so the OutBoundNAT ExceptionList of the pods cannot be checked'));
      return out;
    }
    const pods = ctx.localPods.filter((e) => e.outboundNat.length > 0);
    // Typos, one finding per distinct bad value.
    const bad = new Map<string, { p: ExceptionProblem; eps: typeof pods }>();
    for (const e of pods) for (const nat of e.outboundNat) for (const x of nat.exceptions) {
      const p = exceptionProblem(x);
      if (!p) continue;
      const b = bad.get(x) ?? { p, eps: [] };
      if (!b.eps.includes(e)) b.eps.push(e);
      bad.set(x, b);
    }
    for (const [value, { p, eps }] of bad) {
      out.push({
        id: 'outboundnat-exception-typo',
        severity: p.severity,
        area: 'hns',
        title: `OutBoundNAT ExceptionList entry ${value} on ${plural(eps.length, 'pod endpoint')}`,
        explanation: `${p.why}. The endpoints got this list from the CNI config when they were created.`,
        fix: FIX_CNI,
        objects: [value, ...eps.slice(0, 20).map((e) => e.id)],
        // Every endpoint's line, up to a bound: the panel shows five and "N more" (issue #23).
        evidence: eps.slice(0, MAX_EVIDENCE).map((e) => ctx.ev(e.src, `"${value}"`)),
        trace: ctx.traceSource(eps)?.ip ? { srcIp: ctx.traceSource(eps)!.ip!, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
      });
    }
    // The plugin does not exempt the pod network (OVN-Kubernetes' WMCO template lists only the service
    // CIDR): a missing pod range is its design, not a fault.
    if (ctx.facts && !ctx.facts.outboundNat.exemptsPods) return out;
    // Required ranges per endpoint: its network's pod subnet and remote pod subnets, pod IPs from kubectl.
    const probe = (r: Range) => intToIp(r.hi > r.lo + 4 ? r.lo + 4 : r.lo);
    type Req = { range: Range; label: string; severity: 'error' | 'warning' };
    const k8sReq: Req[] = [];
    for (const p of m.k8s?.pods ?? []) {
      if (p.hostNetwork) continue;
      for (const ip of p.ips) {
        const n = ipNum(ip);
        if (n !== undefined) k8sReq.push({ range: { lo: n, hi: n }, label: `pod ${ip} (${p.namespace}/${p.name})`, severity: 'error' });
      }
    }
    const netReq = new Map<unknown, Req[]>();
    const requiredFor = (e: (typeof pods)[number]): Req[] => {
      const n = ctx.networkOf(e);
      if (!n) return k8sReq;
      let list = netReq.get(n);
      if (!list) {
        list = [];
        for (const s of n.subnets) {
          const r = ipRange(s.prefix);
          if (r) list.push({ range: r, label: `this node's pod subnet ${s.prefix}`, severity: 'error' });
        }
        for (const rs of n.remoteSubnetRoutes) {
          const r = ipRange(rs.destinationPrefix);
          if (r) list.push({ range: r, label: `remote pod subnet ${rs.destinationPrefix}`, severity: 'error' });
        }
        netReq.set(n, list);
      }
      return [...list, ...k8sReq];
    };
    const missing = new Map<string, { label: string; severity: 'error' | 'warning'; eps: typeof pods; range: Range }>();
    for (const e of pods) {
      const exc = e.outboundNat.flatMap((n) => n.exceptions).map((x) => ipRange(x)).filter((r): r is Range => !!r);
      for (const req of requiredFor(e)) {
        if (exc.some((x) => covers(x, req.range))) continue;
        const k = req.label.startsWith('pod ') ? 'pods' : req.label;
        const cur = missing.get(k) ?? { label: req.label, severity: req.severity, eps: [], range: req.range };
        if (!cur.eps.includes(e)) cur.eps.push(e);
        missing.set(k, cur);
      }
    }
    for (const { label, severity, eps, range } of missing.values()) {
      const e0 = ctx.traceSource(eps);
      out.push({
        id: 'outboundnat-exception-missing',
        severity,
        area: 'hns',
        title: `OutBoundNAT ExceptionList does not cover ${label}`,
        explanation: `The OutBoundNAT policy of ${plural(eps.length, 'pod endpoint')} has no exception covering ${label}. Traffic from these pods to it is SNATed to the node IP, so the other pod sees the node as the source: network policies and source-IP-based logic break, and on l2bridge the reply can take another path than the request.`,
        fix: FIX_CNI,
        objects: [label.replace(/^.* (\S+)$/, '$1'), ...eps.slice(0, 20).map((e) => e.id)],
        evidence: eps.slice(0, MAX_EVIDENCE).map((e) => ctx.ev(e.src, /ExceptionList/i)),
        trace: e0?.ip ? { srcIp: e0.ip, dstIp: probe(range), dstPort: 80, proto: 'tcp' } : undefined,
      });
    }
    return out;
  },
};

function undecided(ctx: CheckContext, why: string): Finding {
  return { id: 'outboundnat-undecided', severity: 'info', area: 'hns', undecided: true, title: 'OutBoundNAT ExceptionList not checked', explanation: why, fix: 'Collect the bundle again with collectlogs.ps1 (it writes endpoint.txt with Get-HnsEndpoint | ConvertTo-Json).', objects: [], evidence: [ctx.absent('endpoint.txt', 'file not in the bundle')] };
}
