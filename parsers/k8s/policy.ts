// NetworkPolicies of a kubectl snapshot, read into one shape: Kubernetes' networking.k8s.io/v1
// NetworkPolicy (k8s.io/api networking/v1 types.go) and Calico's NetworkPolicy / GlobalNetworkPolicy
// (projectcalico/api pkg/apis/projectcalico/v3). The object was checked by schema.ts first.
import type { SourceRef } from '../types.ts';
import type { CalicoEntity, CalicoRule, K8sLabelSelector, K8sNetworkPolicy, K8sPolicyPeer, K8sPolicyPort, K8sPolicyRule } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export function labelSelector(v: unknown): K8sLabelSelector | undefined {
  if (!isObj(v)) return undefined;
  const ml = isObj(v.matchLabels) ? v.matchLabels : {};
  return {
    matchLabels: Object.fromEntries(Object.entries(ml).filter(([, x]) => typeof x === 'string')) as Record<string, string>,
    matchExpressions: objs(v.matchExpressions).map((e) => ({ key: str(e.key) ?? '', operator: str(e.operator) ?? '', values: strs(e.values) })),
  };
}

function k8sPorts(v: unknown): K8sPolicyPort[] {
  return objs(v).map((p) => ({
    protocol: (str(p.protocol) ?? 'TCP').toUpperCase(),
    port: typeof p.port === 'number' || typeof p.port === 'string' ? p.port : undefined,
    endPort: typeof p.endPort === 'number' ? p.endPort : undefined,
  }));
}

function k8sPeers(v: unknown): K8sPolicyPeer[] {
  return objs(v).map((p) => {
    const ib = isObj(p.ipBlock) ? p.ipBlock : undefined;
    return {
      podSelector: labelSelector(p.podSelector),
      namespaceSelector: labelSelector(p.namespaceSelector),
      ipBlock: ib && str(ib.cidr) ? { cidr: str(ib.cidr)!, except: strs(ib.except) } : undefined,
    };
  });
}

const PROTO_NAMES: Record<number, string> = { 1: 'ICMP', 6: 'TCP', 17: 'UDP', 132: 'SCTP' };

/** Calico ports: numbers, `lo:hi` ranges, or named ports (kept as names). */
function calicoPorts(protocol: unknown, v: unknown): K8sPolicyPort[] {
  const proto = typeof protocol === 'number' ? (PROTO_NAMES[protocol] ?? String(protocol)) : (str(protocol) ?? 'ANY').toUpperCase();
  const list = Array.isArray(v) ? v : [];
  return list.map((p) => {
    if (typeof p === 'number') return { protocol: proto, port: p };
    const m = typeof p === 'string' ? /^(\d+):(\d+)$/.exec(p) : null;
    return m ? { protocol: proto, port: Number(m[1]), endPort: Number(m[2]) } : { protocol: proto, port: String(p) };
  });
}

function calicoEntity(v: unknown, protocol: unknown): CalicoEntity {
  const e = isObj(v) ? v : {};
  return {
    selector: str(e.selector),
    notSelector: str(e.notSelector),
    namespaceSelector: str(e.namespaceSelector),
    nets: [...strs(e.nets), ...(str(e.net) ? [str(e.net)!] : [])],
    notNets: [...strs(e.notNets), ...(str(e.notNet) ? [str(e.notNet)!] : [])],
    ports: calicoPorts(protocol, e.ports),
    notPorts: calicoPorts(protocol, e.notPorts),
    unmodelled: ['serviceAccounts', 'services'].filter((k) => e[k] !== undefined && e[k] !== null),
  };
}

const protoName = (v: unknown): string | undefined => (typeof v === 'number' ? (PROTO_NAMES[v] ?? String(v)) : str(v)?.toUpperCase());

function calicoRule(r: Obj, dir: 'ingress' | 'egress'): K8sPolicyRule {
  // The peer is the source of an ingress rule and the destination of an egress rule; the ports that
  // matter are the destination's.
  const peer = isObj(dir === 'ingress' ? r.source : r.destination) ? (dir === 'ingress' ? r.source : r.destination) as Obj : {};
  const dst = isObj(r.destination) ? r.destination : {};
  const hasPeer = str(peer.selector) || str(peer.namespaceSelector) || strs(peer.nets).length || strs(peer.notNets).length;
  const calico: CalicoRule = {
    protocol: protoName(r.protocol),
    notProtocol: protoName(r.notProtocol),
    ipVersion: typeof r.ipVersion === 'number' ? r.ipVersion : undefined,
    source: calicoEntity(r.source, r.protocol),
    destination: calicoEntity(r.destination, r.protocol),
    unmodelled: ['http'].filter((k) => r[k] !== undefined && r[k] !== null),
  };
  return {
    calico,
    action: (str(r.action) as K8sPolicyRule['action']) ?? 'Allow',
    peers: hasPeer ? [{ calicoSelector: str(peer.selector), calicoNamespaceSelector: str(peer.namespaceSelector), nets: strs(peer.nets), notNets: strs(peer.notNets) }] : [],
    ports: calicoPorts(r.protocol, dst.ports),
  };
}

export function readNetworkPolicy(it: Obj, calico: boolean, src: SourceRef): K8sNetworkPolicy {
  const md = isObj(it.metadata) ? it.metadata : {};
  const spec = isObj(it.spec) ? it.spec : {};
  const kind = str(it.kind);
  const createdAt = str(md.creationTimestamp);
  if (calico || kind === 'GlobalNetworkPolicy') {
    const ingress = objs(spec.ingress).map((r) => calicoRule(r, 'ingress'));
    const egress = objs(spec.egress).map((r) => calicoRule(r, 'egress'));
    const declared = strs(spec.types) as ('Ingress' | 'Egress')[];
    // Calico's default for types (projectcalico/api v3 PolicySpec.Types): Ingress when there are no
    // egress rules; Egress alone when there are egress rules and no ingress rules; both when both.
    const policyTypes: ('Ingress' | 'Egress')[] = declared.length ? declared : !egress.length ? ['Ingress'] : ingress.length ? ['Ingress', 'Egress'] : ['Egress'];
    const global = kind === 'GlobalNetworkPolicy';
    // Fields that change which endpoints or packets a policy applies to but that hnsight does not
    // evaluate: said as "not verifiable" for the pods the policy selects.
    const unmodelled = ['serviceAccountSelector', 'doNotTrack', 'preDNAT'].filter((k) => spec[k] !== undefined && spec[k] !== null && spec[k] !== false && spec[k] !== '');
    return { flavour: global ? 'calico-global' : 'calico', namespace: global ? undefined : (str(md.namespace) ?? 'default'), name: str(md.name) ?? '', calicoSelector: str(spec.selector), calicoNamespaceSelector: global ? str(spec.namespaceSelector) : undefined, tier: str(spec.tier), unmodelled, policyTypes, ingress, egress, order: typeof spec.order === 'number' ? spec.order : undefined, createdAt, src };
  }
  const ingress = objs(spec.ingress).map((r): K8sPolicyRule => ({ action: 'Allow', peers: k8sPeers(r.from), ports: k8sPorts(r.ports) }));
  const egress = objs(spec.egress).map((r): K8sPolicyRule => ({ action: 'Allow', peers: k8sPeers(r.to), ports: k8sPorts(r.ports) }));
  const declared = strs(spec.policyTypes) as ('Ingress' | 'Egress')[];
  // networking/v1: policyTypes unset means Ingress, plus Egress if the policy has egress rules.
  const policyTypes = declared.length ? declared : egress.length ? ['Ingress', 'Egress'] as ('Ingress' | 'Egress')[] : ['Ingress'] as ('Ingress' | 'Egress')[];
  return { flavour: 'kubernetes', namespace: str(md.namespace) ?? 'default', name: str(md.name) ?? '', podSelector: labelSelector(spec.podSelector) ?? { matchLabels: {}, matchExpressions: [] }, policyTypes, ingress, egress, createdAt, src };
}
