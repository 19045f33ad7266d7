// Kubernetes names for what the node programmed: a pod by IP, a service by VIP (and port/protocol),
// from the optional kubectl snapshot. Without a snapshot every lookup answers undefined.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { K8sPod, K8sService, K8sServicePort } from '../../parsers/k8s/index.ts';

export interface K8sNames {
  present: boolean;
  podByIp(ip: string | undefined): K8sPod | undefined;
  serviceByVip(vip: string | undefined): K8sService | undefined;
  servicePort(vip: string, port: number, proto: number): { service: K8sService; port: K8sServicePort } | undefined;
  /** `ns/name` of the pod with this IP, or undefined. */
  podLabel(ip: string | undefined): string | undefined;
  serviceLabel(vip: string | undefined): string | undefined;
  /** The pod whose sandbox/container ID this is (any prefix of 8+ hex digits). */
  podByContainerId(id: string): K8sPod | undefined;
}

const cache = new WeakMap<NodeModel, K8sNames>();
export const protoName = (p: number): string => (p === 6 ? 'TCP' : p === 17 ? 'UDP' : p === 132 ? 'SCTP' : String(p));

export function k8sNames(m: NodeModel): K8sNames {
  let n = cache.get(m);
  if (n) return n;
  const snap = m.k8s;
  const pods = new Map<string, K8sPod>();
  const svcs = new Map<string, K8sService>();
  for (const p of snap?.pods ?? []) {
    if (p.hostNetwork) continue;
    // A running pod wins over a finished one that had the same IP.
    for (const ip of p.ips) if (!pods.has(ip) || p.phase === 'Running') pods.set(ip, p);
  }
  for (const s of snap?.services ?? []) for (const ip of [...s.clusterIps, ...s.externalIps, ...s.loadBalancerIps]) if (!svcs.has(ip)) svcs.set(ip, s);
  const label = (x: { namespace: string; name: string } | undefined) => (x ? `${x.namespace}/${x.name}` : undefined);
  n = {
    present: !!snap,
    podByIp: (ip) => (ip ? pods.get(ip) : undefined),
    serviceByVip: (vip) => (vip ? svcs.get(vip) : undefined),
    servicePort(vip, port, proto) {
      const s = svcs.get(vip);
      const p = s?.ports.find((x) => x.port === port && x.protocol === protoName(proto));
      return s && p ? { service: s, port: p } : undefined;
    },
    podLabel: (ip) => label(ip ? pods.get(ip) : undefined),
    serviceLabel: (vip) => label(vip ? svcs.get(vip) : undefined),
    podByContainerId(id) {
      const k = id.toLowerCase();
      if (k.length < 8) return undefined;
      return (snap?.pods ?? []).find((p) => p.containerIds.some((c) => c.startsWith(k) || k.startsWith(c)));
    },
  };
  cache.set(m, n);
  return n;
}

/** `10.244.1.5 (default/web-1)` when the snapshot names it. */
export function withPod(m: NodeModel, ip: string | undefined): string {
  const l = k8sNames(m).podLabel(ip);
  return ip ? (l ? `${ip} (${l})` : ip) : '(no IP)';
}

/** `10.96.0.10:53/UDP (kube-system/kube-dns)` when the snapshot names it. */
export function withService(m: NodeModel, vip: string, port?: number, proto?: number): string {
  const l = k8sNames(m).serviceLabel(vip);
  const base = port !== undefined ? `${vip}:${port}/${proto !== undefined ? protoName(proto) : '?'}` : vip;
  return l ? `${base} (${l})` : base;
}
