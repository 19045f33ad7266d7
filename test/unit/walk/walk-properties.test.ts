// Properties every walk keeps, over every platform the generator makes, the demos and every bundle under
// test/fixtures: for each local pod, pod → internet, pod → each other local pod, pod → each Service
// VIP:port, each with its reply.
// - A delivered or forwarded TCP/UDP request has a reply that comes back to its source (the reply's
//   final destination is the request's source address and port), unless a caveat on the request or
//   the reply, or a rule that blocks, says why not (VFP flows: Firestone, NSDI 2017; dynnat bindings
//   keep a flow — vfpctrl `/?`).
// - Nothing is delivered to an endpoint without a vNIC (sig-network thread, ../shared/seeds).
// - "delivered" means a pod or the host of this node received it; a packet that leaves the node, a
//   request or a reply, is "forwarded" (the trace contract, ../shared/DESIGN.md §3).
// - A load balancer's DNAT lands in its DIP set: the VFP rule's DIP ranges, or the HNS load balancer's
//   endpoints when HNS load-balanced it.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { PLATFORMS } from '../../../tools/gen/index.ts';
import { walkFlow } from '../../../analysis/walk/engine.ts';
import { walkContext } from '../../../analysis/walk/context.ts';
import { canonIp } from '../../../analysis/walk/ip.ts';
import type { Flow, WalkResult } from '../../../analysis/walk/types.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import { buildPlatform } from '../platforms/helpers.ts';
import { load } from './helpers.ts';

const INTERNET = '93.184.216.34';
/** A documentation address (RFC 5737) for a client outside the cluster. */
const OUTSIDE_CLIENT = '203.0.113.10';
/** Caveats that name why an answer does not come back to its source. */
const EXPLAINS_NO_ANSWER = new Set(['no-return', 'reply-mismatch', 'limitation', 'black-hole', 'stateless-rewrite', 'icmp', 'unmodelled', 'ambiguous']);

const BUNDLES = [
  'assets/demo/l2bridge-node',
  'assets/demo/overlay-node',
  ...['aks-win-zip-2025', 'ws2019-flannel-l2bridge-2020', 'ws2022-overlay-2024'].map((d) => `test/fixtures/foreign/${d}`),
  ...['foreign-aks-overlay', 'foreign-eks-vpc-bridge', 'foreign-calico-vxlan'].map((d) => `test/fixtures/${d}`),
  ...[
    'aks-blocked-port-ephemeral-exhaustion',
    'aks-pod-dns-not-vip',
    'l2bridge-dns-udp-lb-missing',
    'l2bridge-exceptionlist-typo',
    'l2bridge-gateway-dot1-duplicate-ip',
    'l2bridge-missing-remote-route',
    'l2bridge-vfp-drift-exception-and-lb-rule',
    'overlay-apipa-host-vnic',
    'overlay-gateway-dot2-dns-udp-lb-missing',
    'overlay-remote-subnet-policy-missing',
    'overlay-remotesubnetroute-missing',
    'overlay-stale-dip-endpoint-without-vnic',
  ].map((d) => `test/fixtures/foreign-faults/${d}`),
  'test/fixtures/walk-scenarios/bases/dualstack-l2bridge',
];

interface Walked {
  flow: Flow;
  r: WalkResult;
}

function flowsOf(m: NodeModel): Flow[] {
  const ctx = walkContext(m);
  // Every local endpoint but the host's own (an adapter in compartment 1, such as flannel's cbr0_ep):
  // pods without a vNIC included, as sources and destinations.
  const pods = (m.endpoints ?? []).filter((e) => !e.isRemote && e.ip && ctx.adapterOf.get(e.id)?.compartment.id !== 1).map((e) => e.ip!);
  const services: { vip: string; port: number; proto: 'tcp' | 'udp' }[] = [];
  for (const lb of (m.loadBalancers ?? []).slice(0, 8))
    for (const p of lb.ports.slice(0, 2))
      for (const vip of lb.vips.slice(0, 1)) if (!ctx.hostIps.has(canonIp(vip) ?? '') && (p.protocol === 6 || p.protocol === 17)) services.push({ vip, port: p.externalPort, proto: p.protocol === 6 ? 'tcp' : 'udp' });
  const out: Flow[] = [];
  for (const src of pods) {
    out.push({ srcIp: src, dstIp: INTERNET, dstPort: 443, proto: 'tcp' });
    for (const dst of pods) if (dst !== src) out.push({ srcIp: src, dstIp: dst, dstPort: 80, proto: 'tcp' });
    for (const s of services) if ((s.vip.includes(':') ? 6 : 4) === (src.includes(':') ? 6 : 4)) out.push({ srcIp: src, dstIp: s.vip, dstPort: s.port, proto: s.proto });
  }
  // Outside clients of each NodePort (a few): the answer leaves the node, so it is forwarded, never delivered.
  if (ctx.nodeIp && !ctx.nodeIp.startsWith('169.254.'))
    for (const lb of [...ctx.nodePorts.values()].slice(0, 3))
      for (const p of lb.ports.slice(0, 1)) if (p.protocol === 6 || p.protocol === 17) out.push({ srcIp: OUTSIDE_CLIENT, dstIp: ctx.nodeIp, dstPort: p.externalPort, proto: p.protocol === 6 ? 'tcp' : 'udp' });
  return out;
}

const show = (w: Walked) => `${w.flow.proto} ${w.flow.srcIp} → ${w.flow.dstIp}:${w.flow.dstPort}: ${w.r.verdict} (${w.r.reason}); reply ${w.r.reply?.verdict} (${w.r.reply?.reason}) final ${w.r.reply?.final.dstIp}:${w.r.reply?.final.dstPort}`;

function checkProperties(m: NodeModel): number {
  const ctx = walkContext(m);
  const onNode = (ip: string) => ctx.local.has(canonIp(ip) ?? '') || ctx.hostIps.has(canonIp(ip) ?? '');
  const flows = flowsOf(m);
  for (const flow of flows) {
    const r = walkFlow(m, flow, { reply: true });
    const w = { flow, r };
    for (const x of [r, r.reply!]) {
      // One vocabulary: delivered on this node, forwarded when it leaves it.
      if (x.verdict === 'delivered') {
        expect(x.hops.some((h) => h.kind === 'deliver'), show(w)).toBe(true);
        expect(onNode(x.final.dstIp) || x.final.dstIp !== flow.dstIp, show(w)).toBe(true);
        // Nothing is delivered to an endpoint without a vNIC.
        const ep = ctx.local.get(canonIp([...x.hops].reverse().find((h) => h.kind === 'deliver')?.before?.dstIp ?? x.final.dstIp) ?? '');
        if (ep && m.ip && !ep.isRemote) expect(ctx.adapterOf.has(ep.id), `${show(w)}: delivered to ${ep.ip} without a vNIC`).toBe(true);
      }
      if (canonIp(x.final.dstIp) === OUTSIDE_CLIENT && x.verdict !== 'dropped' && x.verdict !== 'unknown') expect(x.verdict, show(w)).toBe('forwarded');
      if (x.verdict === 'forwarded') expect(['uplink', 'host-route', 'note', 'vswitch', 'vfp'].includes(x.hops[x.hops.length - 1]?.kind ?? ''), show(w)).toBe(true);
      // A load balancer's DNAT lands in its DIP set.
      for (const h of x.hops) {
        if (!h.rewrite?.dstIp || h.flow || !h.before || !h.after) continue;
        const lb = ctx.lbs.get(`${canonIp(h.before.dstIp)}|${h.before.dstPort ?? ''}|${flow.proto === 'tcp' ? 6 : 17}`);
        if (!lb) continue;
        const dips = new Set(lb.endpointIds.map((id) => ctx.endpointsById.get(id.toLowerCase())).flatMap((e) => (e ? [canonIp(e.ip), canonIp(e.ipv6)] : [])));
        const ruleDips = new Set([canonIp(h.after.dstIp), ...(h.alternatives ?? []).map((a) => canonIp(a.replace(/:\d+$/, '')))]);
        expect(dips.has(canonIp(h.after.dstIp)) || (h.kind === 'vfp' && ruleDips.has(canonIp(h.after.dstIp))), `${show(w)}: DNAT to ${h.after.dstIp} is not a DIP of ${lb.id}`).toBe(true);
      }
    }
    // The answer comes back to the socket that sent the request, or something says why not.
    if ((r.verdict === 'delivered' || r.verdict === 'forwarded') && flow.proto !== 'icmp') {
      const back = r.reply!;
      const sentFrom = r.hops.find((h) => h.kind === 'host-route' && h.rewrite?.srcIp)?.rewrite?.srcIp ?? flow.srcIp;
      const ok = (back.verdict === 'delivered' || back.verdict === 'forwarded') && canonIp(back.final.dstIp) === canonIp(sentFrom) && back.final.dstPort === r.hops[0]?.after?.srcPort;
      const explained =
        [...(r.caveats ?? []), ...(back.caveats ?? [])].some((c) => EXPLAINS_NO_ANSWER.has(c.kind)) ||
        // A rule that blocks, or a named drop (a pod without a vNIC, a blocked port); never a layer's default.
        (back.verdict === 'dropped' && ((back.hops[back.deciding]?.kind === 'vfp' && back.hops[back.deciding]?.action === 'block') || back.hops[back.deciding]?.kind === 'drop'));
      expect(ok || explained, `reply does not come back and nothing says why: ${show(w)}`).toBe(true);
    }
  }
  return flows.length;
}

describe('walk properties', () => {
  for (const p of PLATFORMS) {
    it(`generated ${p}`, () => {
      expect(checkProperties(buildPlatform(p).model)).toBeGreaterThan(3);
    });
  }
  for (const b of BUNDLES) {
    it(b, () => {
      expect(checkProperties(load(path.resolve(b)))).toBeGreaterThan(0);
    });
  }
});
