// The classic flows, filled from the bundle: pod → pod (another node when there is one), pod → service
// (kube-dns over UDP and over TCP when present), pod → outside, host → pod, outside → NodePort.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Flow } from './types.ts';
import { walkContext } from './context.ts';

export interface WalkPreset {
  key: 'pod-to-pod' | 'pod-to-pod-remote' | 'pod-to-service' | 'pod-to-service-tcp' | 'pod-to-outside' | 'pod-to-nodeport' | 'host-to-pod' | 'outside-to-nodeport';
  title: string;
  flow: Flow;
}

/** A documentation address (RFC 5737 TEST-NET-3) standing for a client outside the cluster. */
const OUTSIDE_CLIENT = '203.0.113.10';

export function walkPresets(m: NodeModel): WalkPreset[] {
  const joins = new Map(m.joins.endpoints.map((j) => [j.endpointId, j]));
  const pods = (m.endpoints ?? []).filter((e) => !e.isRemote && e.ip && joins.get(e.id)?.portKey && joins.get(e.id)?.compartmentId !== 1);
  const out: WalkPreset[] = [];
  const src = pods[0];
  if (!src?.ip) return out;
  const local = pods.find((p) => p !== src);
  if (local?.ip) out.push({ key: 'pod-to-pod', title: `pod → pod on this node (${src.ip} → ${local.ip})`, flow: { srcIp: src.ip, dstIp: local.ip, dstPort: 80, proto: 'tcp' } });
  const remote = (m.endpoints ?? []).find((e) => e.isRemote && e.ip && e.ip.split('.').slice(0, 2).join('.') === src.ip!.split('.').slice(0, 2).join('.') && e.ip.split('.')[2] !== src.ip!.split('.')[2]);
  if (remote?.ip) out.push({ key: 'pod-to-pod-remote', title: `pod → pod on another node (${src.ip} → ${remote.ip})`, flow: { srcIp: src.ip, dstIp: remote.ip, dstPort: 80, proto: 'tcp' } });
  const lbs = m.loadBalancers ?? [];
  const dns = lbs.find((l) => l.ports.some((p) => p.externalPort === 53 && p.protocol === 17)) ?? lbs.find((l) => l.vips.length && l.ports.length);
  if (dns?.vips.length && dns.ports.length) {
    const p = dns.ports.find((x) => x.externalPort === 53 && x.protocol === 17) ?? dns.ports[0];
    const proto = p.protocol === 17 ? 'udp' : 'tcp';
    out.push({ key: 'pod-to-service', title: `pod → service (${src.ip} → ${dns.vips[0]}:${p.externalPort}/${proto.toUpperCase()})`, flow: { srcIp: src.ip, dstIp: dns.vips[0], dstPort: p.externalPort, proto } });
    const tcp = lbs.find((l) => l.vips.includes(dns.vips[0]) && l.ports.some((x) => x.externalPort === 53 && x.protocol === 6));
    if (p.externalPort === 53 && tcp) out.push({ key: 'pod-to-service-tcp', title: `pod → service over TCP (${src.ip} → ${dns.vips[0]}:53/TCP)`, flow: { srcIp: src.ip, dstIp: dns.vips[0], dstPort: 53, proto: 'tcp' } });
  }
  out.push({ key: 'pod-to-outside', title: `pod → outside (${src.ip} → 93.184.216.34:443)`, flow: { srcIp: src.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } });
  const ctx = walkContext(m);
  if (ctx.nodeIp) {
    out.push({ key: 'host-to-pod', title: `host → pod (${ctx.nodeIp} → ${src.ip}:80)`, flow: { srcIp: ctx.nodeIp, dstIp: src.ip, dstPort: 80, proto: 'tcp' } });
    const np = [...ctx.nodePorts.values()][0];
    const npPort = np?.ports.find((p) => p.protocol === 6 || p.protocol === 17);
    if (npPort) {
      const proto = npPort.protocol === 17 ? 'udp' : 'tcp';
      out.push({ key: 'outside-to-nodeport', title: `outside → NodePort (${OUTSIDE_CLIENT} → ${ctx.nodeIp}:${npPort.externalPort}/${proto.toUpperCase()})`, flow: { srcIp: OUTSIDE_CLIENT, dstIp: ctx.nodeIp, dstPort: npPort.externalPort, proto } });
    }
  }
  return out;
}
