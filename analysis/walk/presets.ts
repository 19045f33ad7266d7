// The classic flows, filled from the bundle: pod → pod (another node when there is one), pod → service
// (kube-dns over UDP and over TCP when present), pod → outside, host → pod, outside → NodePort.
// The source is a healthy pod — an HNS endpoint of a pod with its vNIC in a pod compartment holding its
// address, a VFP port with rules that is not blocked, an address no other endpoint holds — so a walk
// from it shows what the node does to a pod's packets, not the source's own fault. Pods and Services
// Kubernetes names (the kubectl snapshot) come first. Each preset says what it picked and why.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { HnsEndpoint, HnsLoadBalancer } from '../../parsers/hns/index.ts';
import type { Flow } from './types.ts';
import { walkContext, type WalkContext } from './context.ts';
import { checkContext } from '../checks/context.ts';
import { k8sNames } from '../k8s/index.ts';
import { canonIp } from './ip.ts';

export interface WalkPreset {
  key: 'pod-to-pod' | 'pod-to-pod-remote' | 'pod-to-service' | 'pod-to-service-tcp' | 'pod-to-outside' | 'pod-to-nodeport' | 'host-to-pod' | 'outside-to-nodeport';
  title: string;
  flow: Flow;
  /** What was picked and why (the source's health, the names, the pods passed over). */
  why: string;
}

/** A documentation address (RFC 5737 TEST-NET-3) standing for a client outside the cluster. */
const OUTSIDE_CLIENT = '203.0.113.10';
/** An address outside the cluster (example.com's), for pod → outside. */
const OUTSIDE = '93.184.216.34';
const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);

interface Candidate {
  ep: HnsEndpoint;
  ip: string;
  name?: string;
  /** Why it is not a healthy source (undefined: healthy). */
  problem?: string;
  /** Compartment and port, for the words. */
  compartment?: number;
  port?: string;
}

/** What is wrong with a pod endpoint as a source, in words; undefined when nothing is. */
function problemOf(ctx: WalkContext, ep: HnsEndpoint, ip: string): string | undefined {
  const a = ctx.adapterOf.get(ep.id);
  if (!ctx.model.ip) return undefined; // without ip.txt the vNIC cannot be checked either way
  if (!a) return `${ip} has no vNIC in any compartment`;
  if (a.compartment.id === 1) return `${ip}'s NIC is in the host compartment`;
  if (!a.adapter.ipv4.some((x) => x.address === ip)) return `${ip}'s NIC ${a.adapter.name} does not hold its address`;
  return undefined;
}

function candidates(m: NodeModel): Candidate[] {
  const ctx = walkContext(m);
  const names = k8sNames(m);
  const pods = checkContext(m).localPods;
  return pods.map((ep) => {
    const ip = ep.ip!;
    const port = ctx.portOf.get(ep.id);
    const pod = names.podByIp(ip);
    const problem =
      problemOf(ctx, ep, ip) ??
      (!port ? `${ip} has no VFP port in the bundle` : !port.policy ? `${ip}'s VFP port ${short(port.name)} has no rules in the bundle` : port.policy.blocked ? `${ip}'s VFP port ${short(port.name)} is blocked` : undefined) ??
      (ctx.duplicates.has(canonIp(ip) ?? ip) ? `${ip} is held by more than one endpoint` : undefined) ??
      (pod && pod.phase !== 'Running' ? `${ip} belongs to pod ${pod.namespace}/${pod.name}, which is ${pod.phase ?? 'not Running'}` : undefined);
    return { ep, ip, name: pod ? `${pod.namespace}/${pod.name}` : undefined, problem, compartment: ctx.adapterOf.get(ep.id)?.compartment.id, port: port?.name };
  });
}

/** Healthy first, then named by Kubernetes first; the file's order otherwise. */
function ranked(cs: Candidate[]): Candidate[] {
  const score = (c: Candidate) => (c.problem ? 2 : 0) + (c.name ? 0 : 1);
  return cs.map((c, i) => ({ c, i })).sort((a, b) => score(a.c) - score(b.c) || a.i - b.i).map((x) => x.c);
}

const label = (c: Pick<Candidate, 'ip' | 'name'>) => (c.name ? `${c.name} (${c.ip})` : c.ip);

function sourceWhy(src: Candidate, all: Candidate[]): string {
  const what = src.problem
    ? `${label(src)} although ${src.problem}: no pod of this node is a healthy source`
    : `${label(src)}: a ${src.name ? 'Running pod' : 'pod endpoint'} with ${src.compartment !== undefined ? `its vNIC in compartment ${src.compartment}` : 'no ip.txt to check its vNIC'} and VFP port ${short(src.port ?? '?')}${src.name ? ', named by the kubectl snapshot' : ''}`;
  // The pods a reader would have expected first (earlier in the file) and why they were passed over.
  const before = all.slice(0, all.indexOf(src)).filter((c) => c.problem);
  return `source ${what}${before.length ? `; passed over: ${before.slice(0, 3).map((c) => c.problem).join('; ')}${before.length > 3 ? ` and ${before.length - 3} more` : ''}` : ''}`;
}

function serviceName(m: NodeModel, lb: HnsLoadBalancer): string | undefined {
  return k8sNames(m).lbLabel(lb);
}

export function walkPresets(m: NodeModel): WalkPreset[] {
  const all = candidates(m);
  const order = ranked(all);
  const out: WalkPreset[] = [];
  const src = order[0];
  if (!src) return out;
  const srcWhy = sourceWhy(src, all);
  const names = k8sNames(m);
  const ctx = walkContext(m);

  const local = order.find((c) => c !== src && !c.problem);
  if (local) {
    out.push({ key: 'pod-to-pod', title: `pod → pod on this node (${label(src)} → ${label(local)})`, flow: { srcIp: src.ip, dstIp: local.ip, dstPort: 80, proto: 'tcp' }, why: `${srcWhy}; destination ${label(local)}, another healthy pod of this node` });
  }

  // A pod of another node: a remote endpoint in the source's /16 but another /24 (a remote pod subnet), named pods first.
  const pre16 = src.ip.split('.').slice(0, 2).join('.');
  const pre24 = src.ip.split('.').slice(0, 3).join('.');
  const remotes = (m.endpoints ?? []).filter((e) => e.isRemote && e.ip && e.ip.split('.').slice(0, 2).join('.') === pre16 && e.ip.split('.').slice(0, 3).join('.') !== pre24);
  const remote = remotes.find((e) => names.podLabel(e.ip)) ?? remotes[0];
  if (remote?.ip) {
    const r = { ip: remote.ip, name: names.podLabel(remote.ip) };
    out.push({ key: 'pod-to-pod-remote', title: `pod → pod on another node (${label(src)} → ${label(r)})`, flow: { srcIp: src.ip, dstIp: remote.ip, dstPort: 80, proto: 'tcp' }, why: `${srcWhy}; destination ${label(r)}, a remote endpoint in another pod subnet${r.name ? ' (a pod Kubernetes names)' : ''}` });
  }

  // A Service: kube-dns over UDP 53 first (every pod uses it), else a Service Kubernetes names, else any load balancer.
  const lbs = (m.loadBalancers ?? []).filter((l) => l.vips.length && l.ports.length && !l.vips.every((v) => ctx.hostIps.has(v)));
  const isDns = (l: HnsLoadBalancer) => l.ports.some((p) => p.externalPort === 53 && p.protocol === 17);
  const dns = lbs.find((l) => isDns(l) && /(^|\/)(kube-dns|coredns)$/.test(serviceName(m, l) ?? '')) ?? lbs.find(isDns) ?? lbs.find((l) => serviceName(m, l)) ?? lbs[0];
  const [vip] = dns?.vips ?? [];
  const p = dns && (dns.ports.find((x) => x.externalPort === 53 && x.protocol === 17) ?? dns.ports[0]);
  if (dns && vip !== undefined && p) {
    const proto = p.protocol === 17 ? 'udp' : 'tcp';
    const svc = serviceName(m, dns);
    const what = `${svc ? `${svc} ` : ''}${vip}:${p.externalPort}/${proto.toUpperCase()}`;
    const reason = isDns(dns) ? `the cluster DNS service every pod queries${svc ? '' : ' (the load balancer on UDP 53)'}` : svc ? 'a Service Kubernetes names' : 'the first load balancer with a VIP';
    out.push({ key: 'pod-to-service', title: `pod → service (${label(src)} → ${what})`, flow: { srcIp: src.ip, dstIp: vip, dstPort: p.externalPort, proto }, why: `${srcWhy}; service ${what}: ${reason}` });
    const tcp = (m.loadBalancers ?? []).find((l) => l.vips.includes(vip) && l.ports.some((x) => x.externalPort === 53 && x.protocol === 6));
    if (p.externalPort === 53 && tcp) out.push({ key: 'pod-to-service-tcp', title: `pod → service over TCP (${label(src)} → ${svc ? `${svc} ` : ''}${vip}:53/TCP)`, flow: { srcIp: src.ip, dstIp: vip, dstPort: 53, proto: 'tcp' }, why: `${srcWhy}; DNS over TCP (answers too big for UDP) to the same service` });
  }

  out.push({ key: 'pod-to-outside', title: `pod → outside (${label(src)} → ${OUTSIDE}:443)`, flow: { srcIp: src.ip, dstIp: OUTSIDE, dstPort: 443, proto: 'tcp' }, why: `${srcWhy}; destination ${OUTSIDE}:443, an address outside the cluster (OutboundNAT applies)` });
  // A self-assigned 169.254/16 address is not the node's address on any network: no host walk from it.
  if (ctx.nodeIp && !ctx.nodeIp.startsWith('169.254.')) {
    out.push({ key: 'host-to-pod', title: `host → pod (${ctx.nodeIp} → ${label(src)}:80)`, flow: { srcIp: ctx.nodeIp, dstIp: src.ip, dstPort: 80, proto: 'tcp' }, why: `from the host (${ctx.nodeIp}) to ${srcWhy.replace(/^source /, '')}; the node's route table picks the host vNIC and the source address a kubelet probe leaves with` });
    const nps = [...ctx.nodePorts.values()];
    const np = nps.find((l) => serviceName(m, l)) ?? nps[0];
    const npPort = np?.ports.find((p) => p.protocol === 6 || p.protocol === 17);
    if (np && npPort) {
      const proto = npPort.protocol === 17 ? 'udp' : 'tcp';
      const svc = serviceName(m, np);
      out.push({
        key: 'outside-to-nodeport',
        title: `outside → NodePort (${OUTSIDE_CLIENT} → ${ctx.nodeIp}:${npPort.externalPort}/${proto.toUpperCase()}${svc ? ` ${svc}` : ''})`,
        flow: { srcIp: OUTSIDE_CLIENT, dstIp: ctx.nodeIp, dstPort: npPort.externalPort, proto },
        why: `a client outside the cluster (${OUTSIDE_CLIENT}, a documentation address) to node port ${npPort.externalPort}/${proto.toUpperCase()} of the node's address${svc ? `, Service ${svc}` : ''}`,
      });
    }
  }
  return out;
}
