// The Kubernetes side of a platform node: pod names (by the Services they back), the pods on other
// nodes that back this node's load balancers, the Node objects, and the log faults' sandboxes. The
// kubectl snapshot (files/side.ts) is rendered from these objects.
import type { Rng } from './prng.ts';
import { ipToInt } from './net.ts';
import type { PlatformProfile } from './platforms.ts';
import type { ClusterNodeContext, FaultRecord, GeneratedNode, GenPod, GenService, HnsEndpoint } from './types.ts';

const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += SUFFIX[r.int(0, SUFFIX.length - 1)];
  return s;
}

/** The label a Service's selector uses to pick its backends (one key per Service: a pod may back several). */
export function backendLabel(svc: { namespace: string; name: string }): [string, string] {
  return svc.namespace === 'kube-system' && svc.name === 'kube-dns' ? ['k8s-app', 'kube-dns'] : [`backend.hnsight.example/${svc.name}`, 'true'];
}

export function podNameFor(ip: string, services: GenService[], r: Rng, i: number): { namespace: string; name: string; labels: Record<string, string> } {
  const backs = services.filter((s) => s.name !== 'kubernetes' && s.backends.includes(ip));
  const labels: Record<string, string> = {};
  for (const s of backs) {
    const [k, v] = backendLabel(s);
    labels[k] = v;
  }
  const first = backs[0];
  if (first?.name === 'kube-dns') return { namespace: 'kube-system', name: `coredns-${suffix(r, 10)}-${suffix(r, 5)}`, labels };
  const base = first ? first.name : `app-${i}`;
  labels.app = base;
  return { namespace: first?.namespace ?? 'default', name: `${base}-${suffix(r, 10)}-${suffix(r, 5)}`, labels };
}

const podLabels = new WeakMap<HnsEndpoint, Record<string, string>>();

/** Names the local pods after the Services they back (before endpoint names that use the pod name are set). */
export function assignPodNames(pods: HnsEndpoint[], services: GenService[], r: Rng): void {
  pods.forEach((p, i) => {
    const n = podNameFor(p.ip, services, r, i);
    p.pod = { namespace: n.namespace, name: n.name, uid: r.guid().toLowerCase() };
    podLabels.set(p, n.labels);
  });
}

export function buildCluster(node: GeneratedNode, prof: PlatformProfile, r: Rng, faults: FaultRecord[], cluster?: ClusterNodeContext): void {
  if (cluster) {
    // A node of a generated cluster shares the cluster's snapshot: every pod, every Node.
    node.pods = cluster.pods.map((p) => ({ ...p }));
    node.k8sNodes = cluster.k8sNodes.map((n) => ({ ...n }));
  } else buildSnapshot(node, prof, r);
  logFaults(node, prof, r, faults);
}

function buildSnapshot(node: GeneratedNode, prof: PlatformProfile, r: Rng): void {
  const pods: GenPod[] = [];
  for (const e of node.endpoints) {
    if (e.kind !== 'pod' || !e.pod) continue;
    // duplicate-ip: the second endpoint with the same IP is a stale one; Kubernetes knows one pod per IP.
    if (pods.some((p) => p.ip === e.ip)) continue;
    pods.push({ ...e.pod, ip: e.ip, nodeName: node.nodeName, containerId: e.containerId!, labels: podLabels.get(e) ?? {}, phase: 'Running' });
  }
  // Pods on other nodes that back this node's Services.
  const ownerOf = (ip: string) =>
    node.remoteNodes.find((n) => {
      const base = ipToInt(n.podSubnet.split('/')[0]) + (n.firstPod ?? 3);
      const x = ipToInt(ip);
      return x >= base && x < base + Math.max(24, node.spec.pods);
    });
  const seen = new Set(pods.map((p) => p.ip));
  let i = pods.length;
  for (const s of node.services) {
    if (s.name === 'kubernetes') continue;
    for (const ip of s.backends) {
      if (seen.has(ip)) continue;
      const owner = ownerOf(ip);
      if (!owner) continue;
      seen.add(ip);
      const n = podNameFor(ip, node.services, r, i++);
      pods.push({ namespace: n.namespace, name: n.name, uid: r.guid().toLowerCase(), ip, nodeName: owner.name, containerId: r.hex(64, false), labels: n.labels, phase: 'Running' });
    }
  }
  node.pods = pods;
  node.k8sNodes = [
    { name: node.nodeName, ip: node.nodeIp, podCidr: prof.podCidrOnNode ? node.podSubnet : undefined },
    ...node.remoteNodes.map((n) => ({ name: n.name, ip: n.ip, podCidr: prof.podCidrOnNode ? n.podSubnet : undefined })),
  ];
}

function logFaults(node: GeneratedNode, prof: PlatformProfile, r: Rng, faults: FaultRecord[]): void {
  const f = new Set(node.spec.faults);
  const local = node.endpoints.filter((e) => e.kind === 'pod');
  if (f.has('slow-cni-add')) {
    // The last pod (wincni.log keeps only the last ADD on sdnbridge nodes).
    const e = local[local.length - 1];
    node.logFaults.slow = e.containerId;
    faults.push({ name: 'slow-cni-add', detail: `the CNI ADD of ${e.pod?.namespace}/${e.pod?.name} stalls ${SLOW_MS / 1000} s inside ${prof.name}`, objects: [`${e.pod?.namespace}/${e.pod?.name}`, e.containerId!] });
  }
  if (f.has('cni-add-failures')) {
    const name = `failing-${suffix(r, 10)}-${suffix(r, 5)}`;
    node.logFaults.failing = name;
    node.logFaults.failingSandboxes = [r.hex(64, false), r.hex(64, false), r.hex(64, false)];
    node.pods.push({ namespace: 'default', name, uid: r.guid().toLowerCase(), ip: '', nodeName: node.nodeName, containerId: '', labels: { app: 'failing' }, phase: 'Pending' });
    faults.push({ name: 'cni-add-failures', detail: `the CNI ADD of default/${name} fails 3 times`, objects: [`default/${name}`] });
  }
}

/** How long the slow step of the slow-cni-add fault takes. */
export const SLOW_MS = 7400;
