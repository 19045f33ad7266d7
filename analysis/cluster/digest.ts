// A node, reduced to what its peers can be checked against and what a fleet summary counts: its
// identity, what it believes about the others (remote subnets, host routes, remote endpoints), its
// load balancers, OutboundNAT exceptions, CNI config, kube-proxy flags, versions, counts, findings and
// CNI ADD times. Small on purpose: a fleet run keeps one digest per node and drops the model. Strings
// that repeat across nodes (VIP keys, backend lists, exception lists) go through an interner so 500
// nodes that program the same Services hold each text once.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { SourceRef } from '../../parsers/types.ts';
import type { InspectCounts } from '../inspect.ts';
import type { Finding } from '../findings/types.ts';
import { countObjects } from '../inspect.ts';
import { loadedConfigs } from '../checks/cni.ts';
import { buildTimelines } from '../timeline/index.ts';
import { factsOf } from '../platform/index.ts';
import { canonIp, familyOf, ipToInt } from '../walk/ip.ts';
import { nodeIdentity } from './identity.ts';
import type { NodeIdentity } from './node-identity.ts';

/** Shares equal strings between digests. */
export class Interner {
  private map = new Map<string, string>();
  intern(s: string): string {
    const hit = this.map.get(s);
    if (hit !== undefined) return hit;
    this.map.set(s, s);
    return s;
  }
  get size(): number {
    return this.map.size;
  }
  private memos = new Map<string, unknown>();
  /** One value per (interned) key: equal snapshots of 500 nodes parse into one list. */
  memo<T>(key: string, make: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const v = make();
    this.memos.set(key, v);
    return v;
  }
}

/** Load balancers as parallel columns (a node can have thousands). */
export interface LbDigest {
  /** `VIP:port/PROTO`, or `NodePort port/PROTO` for kube-proxy's NodePort load balancers. */
  keys: string[];
  /** The backends' addresses, sorted, comma-joined (`?<id>` for an endpoint no list has). */
  dips: string[];
  /** 1: NodePort, 2: DSR (ExternalTrafficPolicy Local on NodePorts: local backends only, by design). */
  flags: number[];
  lines: number[];
  files: string[];
}

export interface NodeDigest {
  id: string;
  bundle: string;
  identity: NodeIdentity;
  remoteSubnets: { prefix: string; pa: string; drMac?: string; vni?: number; src: SourceRef }[];
  /** Host routes to another subnet via a gateway (not on-link, not default, not host or multicast). */
  hostRoutes: { prefix: string; nextHop: string; src: SourceRef }[];
  remoteEndpoints: { ip: string; pa?: string; src: SourceRef }[];
  /** Addresses of the node's own pod endpoints (not infrastructure endpoints). */
  localPods: string[];
  lbs: LbDigest;
  /** Whether kube-proxy programs HNS load balancers on this plugin (facts.ts). */
  kubeProxy: boolean;
  /** The OutBoundNAT ExceptionList most of its pod endpoints carry (sorted), with the first one's line. */
  exceptions?: { list: string; pods: number; of: number; src: SourceRef };
  /** The CNI config containerd loads, reduced to what should be the same on every node of a pool. */
  cni?: { file: string; shape: string; cniVersion?: string; src: SourceRef };
  /** kube-proxy's flags as it logs them at -v 1 and above (`FLAG: --name="value"`). */
  kubeProxyFlags?: { flags: Record<string, string>; file: string };
  versions: { windows?: string; kubelet?: string; kubeletSrc?: SourceRef };
  /** The kubectl snapshot's `default/kubernetes` ClusterIP (what names the cluster: partition.ts). */
  kubernetesVip?: string;
  /** The kubectl snapshot's Node objects (shared between digests when the snapshots are equal). */
  k8sNodes: { name: string; addresses: string[]; podCidrs: string[]; os?: string }[];
  counts: InspectCounts;
  errors: number;
  warnings: number;
  /** Finding ids with their severity and title (one entry per id, with how many findings had it). */
  findings: { id: string; severity: Finding['severity']; title: string; count: number }[];
  cniAdds: number;
  cniAddP50Ms: number | null;
  cniAddP99Ms: number | null;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? null;
}

const protoName = (p: number) => (p === 6 ? 'TCP' : p === 17 ? 'UDP' : String(p));
const FLAG = /\bFLAG: --([A-Za-z0-9][A-Za-z0-9_.-]*)=(.*)$/;

/**
 * kube-proxy prints every flag at start-up at verbosity 1 (kubernetes component-base cli/flag
 * PrintFlags: `klog.V(1).Infof("FLAG: --%s=%q", flag.Name, flag.Value)`, called from
 * cmd/kube-proxy/app/server.go). Nothing else in a bundle says how kube-proxy was started.
 */
function kubeProxyFlags(m: NodeModel): NodeDigest['kubeProxyFlags'] {
  for (const f of m.logs ?? []) {
    if (f.component !== 'kube-proxy') continue;
    const flags: Record<string, string> = {};
    for (const e of f.events) {
      const hit = FLAG.exec(e.message);
      const [, name, raw] = hit ?? [];
      if (name === undefined || raw === undefined) continue;
      let v = raw.trim();
      if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
      flags[name] = v;
    }
    if (Object.keys(flags).length) return { flags, file: f.file };
  }
  return undefined;
}

function kubeletVersion(m: NodeModel): { version?: string; src?: SourceRef } {
  for (const f of m.logs ?? []) {
    if (f.component !== 'kubelet') continue;
    for (const e of f.events) {
      const v = e.fields?.kubeletVersion;
      if (v) return { version: v.replace(/^"|"$/g, ''), src: e.src };
    }
  }
  return {};
}

/** The CNI config's shape: plugin types, delegate, IPAM type and mode, cniVersion (what a pool shares). */
function cniShape(m: NodeModel): NodeDigest['cni'] {
  const loaded = loadedConfigs(m.cni?.configs ?? []).map((x) => x.loaded).filter((c) => c.origin !== 'crictl-info');
  const c = loaded[0];
  if (!c) return undefined;
  const parts = c.plugins.map((p) => [p.type ?? '?', p.delegateType ? `delegate ${p.delegateType}` : '', p.ipamType ? `ipam ${p.ipamType}${p.ipamMode ? `/${p.ipamMode}` : ''}` : '', p.mode ? `mode ${p.mode}` : ''].filter(Boolean).join(' '));
  const shape = `${c.file.slice(c.file.lastIndexOf('/') + 1)}: ${parts.join(', ') || '(no plugins)'}${c.cniVersion ? `, cniVersion ${c.cniVersion}` : ''}${c.invalid ? ', invalid JSON' : ''}`;
  return { file: c.file, shape, cniVersion: c.cniVersion, src: c.src };
}

export interface DigestOptions {
  id: string;
  bundle: string;
  /** The node's findings (runChecks), for the counts the fleet summary prints. */
  findings?: Finding[];
  interner?: Interner;
}

export function nodeDigest(m: NodeModel, opts: DigestOptions): NodeDigest {
  const I = opts.interner ?? new Interner();
  const fallback = opts.bundle.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? opts.bundle;
  const identity = nodeIdentity(m, fallback.replace(/\.zip$/i, ''));
  const own = new Set(identity.addresses);
  const facts = factsOf(identity.plugin);
  const infra = new Set((facts?.infraEndpoints ?? []).map((n) => n.toLowerCase()));

  const remoteSubnets: NodeDigest['remoteSubnets'] = [];
  for (const n of m.networks ?? []) for (const r of n.remoteSubnetRoutes) remoteSubnets.push({ prefix: I.intern(r.destinationPrefix), pa: I.intern(canonIp(r.providerAddress) ?? r.providerAddress), drMac: r.drMac ? I.intern(r.drMac.replace(/:/g, '-').toUpperCase()) : undefined, vni: r.isolationId, src: n.src });

  const hostRoutes: NodeDigest['hostRoutes'] = [];
  for (const r of m.routes?.ipv4Active ?? []) {
    const bits = r.prefixLength;
    if (r.onLink || bits === undefined || bits === 0 || bits === 32 || familyOf(r.gateway) !== 4) continue;
    const first = ipToInt(r.destination);
    if (first !== undefined && first >>> 28 === 14) continue; // 224.0.0.0/4
    hostRoutes.push({ prefix: I.intern(`${r.destination}/${bits}`), nextHop: I.intern(r.gateway), src: r.src });
  }

  // kube-proxy's source-VIP endpoint (overlay) is local but no pod (winkernel proxier.go: "Source Vip endpoint").
  const sourceVips = new Set((m.loadBalancers ?? []).map((l) => canonIp(l.sourceVip)).filter((x): x is string => !!x));
  const remoteEndpoints: NodeDigest['remoteEndpoints'] = [];
  const localPods: string[] = [];
  const byId = new Map<string, string>();
  const excCount = new Map<string, { n: number; src: SourceRef }>();
  let podEps = 0;
  for (const e of m.endpoints ?? []) {
    const ip = canonIp(e.ip);
    if (ip) byId.set(e.id.toLowerCase(), ip);
    if (!ip) continue;
    if (e.isRemote) {
      remoteEndpoints.push({ ip: I.intern(ip), pa: e.providerAddress ? I.intern(canonIp(e.providerAddress) ?? e.providerAddress) : undefined, src: e.src });
      continue;
    }
    if (infra.has(e.name.toLowerCase()) || own.has(ip) || sourceVips.has(ip)) continue;
    localPods.push(I.intern(ip));
    const nat = e.outboundNat.find((o) => o.exceptions.length) ?? e.outboundNat[0];
    if (!nat) continue;
    podEps++;
    const key = I.intern([...nat.exceptions].sort().join(', '));
    const c = excCount.get(key);
    if (c) c.n++;
    else excCount.set(key, { n: 1, src: e.src });
  }
  let exceptions: NodeDigest['exceptions'];
  for (const [list, c] of excCount) if (!exceptions || c.n > exceptions.pods) exceptions = { list, pods: c.n, of: podEps, src: c.src };

  const lbs: LbDigest = { keys: [], dips: [], flags: [], lines: [], files: [] };
  for (const lb of m.loadBalancers ?? []) {
    const vips = lb.vips.map((v) => canonIp(v) ?? v);
    const nodePort = !vips.length || vips.every((v) => own.has(v));
    const dips = I.intern(lb.endpointIds.map((id) => byId.get(id.toLowerCase()) ?? `?${id.toLowerCase()}`).sort().join(','));
    for (const p of lb.ports) {
      const targets = nodePort ? [`NodePort ${p.externalPort}/${protoName(p.protocol)}`] : vips.map((v) => `${v.includes(':') ? `[${v}]` : v}:${p.externalPort}/${protoName(p.protocol)}`);
      for (const key of targets) {
        lbs.keys.push(I.intern(key));
        lbs.dips.push(dips);
        lbs.flags.push((nodePort ? 1 : 0) | (lb.dsr ? 2 : 0));
        lbs.lines.push(lb.src.line);
        lbs.files.push(I.intern(lb.src.file));
      }
    }
  }

  const nodesJson = I.intern(JSON.stringify((m.k8s?.nodes ?? []).map((n) => [n.name, n.addresses.map((a) => a.address), n.podCidrs, n.os ?? null])));
  const k8sNodes = I.memo(nodesJson, () => (JSON.parse(nodesJson) as [string, string[], string[], string | null][]).map(([name, addresses, podCidrs, os]) => ({ name, addresses, podCidrs, os: os ?? undefined })));

  const findings = opts.findings ?? [];
  const byFinding = new Map<string, NodeDigest['findings'][number]>();
  for (const f of findings) {
    const hit = byFinding.get(f.id);
    if (hit) hit.count++;
    else byFinding.set(f.id, { id: I.intern(f.id), severity: f.severity, title: f.title, count: 1 });
  }
  const adds = buildTimelines(m.logs ?? []).map((t) => t.add).filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  const kubelet = kubeletVersion(m);
  return {
    id: opts.id,
    bundle: opts.bundle,
    identity,
    remoteSubnets,
    hostRoutes,
    remoteEndpoints,
    localPods,
    lbs,
    kubeProxy: facts ? facts.kubeProxy : (m.loadBalancers?.length ?? 0) > 0,
    exceptions,
    cni: cniShape(m),
    kubeProxyFlags: kubeProxyFlags(m),
    versions: { windows: identity.windowsBuild, kubelet: kubelet.version, kubeletSrc: kubelet.src },
    k8sNodes,
    kubernetesVip: m.k8s?.services.find((s) => s.namespace === 'default' && s.name === 'kubernetes')?.clusterIps[0],
    counts: countObjects(m),
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
    findings: [...byFinding.values()],
    cniAdds: adds.length,
    cniAddP50Ms: percentile(adds, 50),
    cniAddP99Ms: percentile(adds, 99),
  };
}
