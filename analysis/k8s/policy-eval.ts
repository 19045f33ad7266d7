// What the Kubernetes NetworkPolicies of a snapshot say about one packet, per the API's semantics
// (kubernetes.io/docs/concepts/services-networking/network-policies/; k8s.io/api networking/v1
// types.go): a pod selected by no policy of a direction is allowed in that direction; a selected pod
// is allowed what the union of the selecting policies' rules of that direction allows. A rule with no
// peers matches every peer, with no ports every port; a peer's podSelector alone means pods of the
// policy's namespace; namespaceSelector picks namespaces by their labels (the snapshot holds no
// Namespace objects: only `kubernetes.io/metadata.name`, which the API sets on every namespace since
// 1.21, is known — other keys make the answer "insufficient information"). Calico's own policies
// (selector expressions) are not evaluated here.
import type { K8sLabelSelector, K8sNetworkPolicy, K8sPod, K8sPolicyPeer, K8sPolicyPort } from '../../parsers/k8s/index.ts';
import { selects } from './selectors.ts';

export type PolicyDir = 'ingress' | 'egress';

/** The other end of the packet: a pod of the snapshot, or an address no pod holds. */
export interface PolicyPeer {
  ip: string;
  pod?: K8sPod;
}

export interface RuleRef {
  policy: K8sNetworkPolicy;
  /** Index in the policy's ingress or egress list. */
  index: number;
}

export interface IntentVerdict {
  allowed: boolean;
  /** The policies of this direction that select the pod (none: allowed by default). */
  selecting: K8sNetworkPolicy[];
  /** The rules that allow the packet. */
  allowedBy: RuleRef[];
  /** Set when the answer depends on something the snapshot does not hold (then `allowed` is a guess not to act on). */
  unknown?: string;
}

const NS_NAME = 'kubernetes.io/metadata.name';

function nsSelects(sel: K8sLabelSelector, ns: string): boolean | string {
  const keys = [...Object.keys(sel.matchLabels), ...sel.matchExpressions.map((e) => e.key)];
  const other = keys.find((k) => k !== NS_NAME);
  if (other) return `the labels of namespace ${ns} (the snapshot has no Namespace objects; "${other}" is not known)`;
  return selects(sel, { [NS_NAME]: ns });
}

function v4(ip: string): number | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m) return undefined;
  const o = m.slice(1).map(Number);
  return o.some((x) => x > 255) ? undefined : ((o[0] << 24) >>> 0) + (o[1] << 16) + (o[2] << 8) + o[3];
}

/** Is `ip` inside `cidr` (IPv4)? undefined when either is not IPv4. */
export function inCidr(ip: string, cidr: string): boolean | undefined {
  const [base, lenText] = cidr.split('/');
  const a = v4(ip);
  const b = v4(base);
  const len = lenText === undefined ? 32 : Number(lenText);
  if (a === undefined || b === undefined || !Number.isInteger(len) || len < 0 || len > 32) return undefined;
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return ((a & mask) >>> 0) === ((b & mask) >>> 0);
}

/** true / false, or the missing information as a string. */
function peerMatches(p: K8sPolicyPeer, policyNs: string, peer: PolicyPeer): boolean | string {
  if (p.ipBlock) {
    if (!inCidr(peer.ip, p.ipBlock.cidr)) return false;
    return !p.ipBlock.except.some((e) => inCidr(peer.ip, e));
  }
  if (!p.podSelector && !p.namespaceSelector) return false;
  const pod = peer.pod;
  if (!pod) return false;
  if (p.namespaceSelector) {
    const ns = nsSelects(p.namespaceSelector, pod.namespace);
    if (ns !== true) return ns;
  } else if (pod.namespace !== policyNs) return false;
  return p.podSelector ? selects(p.podSelector, pod.labels) : true;
}

function portMatches(ports: K8sPolicyPort[], proto: string, port: number | undefined): boolean | string {
  if (!ports.length) return true;
  let missing: string | undefined;
  for (const p of ports) {
    if (p.protocol.toUpperCase() !== proto.toUpperCase()) continue;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      if (/^\d+$/.test(p.port) && Number(p.port) === port) return true;
      missing ??= `the container port named "${p.port}" (the snapshot does not hold container ports)`;
      continue;
    }
    if (port !== undefined && port >= p.port && port <= (p.endPort ?? p.port)) return true;
  }
  return missing ?? false;
}

/** The Kubernetes NetworkPolicies that select `pod` for `dir`. */
export function selectingPolicies(policies: K8sNetworkPolicy[], pod: K8sPod, dir: PolicyDir): K8sNetworkPolicy[] {
  const type = dir === 'ingress' ? 'Ingress' : 'Egress';
  return policies.filter((p) => p.flavour === 'kubernetes' && p.podSelector && p.namespace === pod.namespace && p.policyTypes.includes(type) && selects(p.podSelector, pod.labels));
}

/**
 * What the policies say about a packet between `pod` (the destination for ingress, the source for
 * egress) and `peer`, on `proto`/`port` (the destination port).
 */
export function policyIntent(policies: K8sNetworkPolicy[], pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number | undefined): IntentVerdict {
  const selecting = selectingPolicies(policies, pod, dir);
  if (!selecting.length) return { allowed: true, selecting, allowedBy: [] };
  const allowedBy: RuleRef[] = [];
  let unknown: string | undefined;
  for (const policy of selecting) {
    (dir === 'ingress' ? policy.ingress : policy.egress).forEach((rule, index) => {
      const ports = portMatches(rule.ports, proto, port);
      if (ports === false) return;
      let peers: boolean | string = rule.peers.length === 0;
      for (const p of rule.peers) {
        const r = peerMatches(p, policy.namespace ?? '', peer);
        if (r === true) { peers = true; break; }
        if (typeof r === 'string') peers = r;
      }
      if (peers === true && ports === true) allowedBy.push({ policy, index });
      else if (peers !== false) unknown ??= typeof peers === 'string' ? peers : (ports as string);
      else if (typeof ports === 'string' && peers) unknown ??= ports;
    });
  }
  return allowedBy.length ? { allowed: true, selecting, allowedBy } : { allowed: false, selecting, allowedBy, ...(unknown ? { unknown } : {}) };
}

/** `ns/name ingress[0]`. */
export function ruleLabel(r: RuleRef, dir: PolicyDir): string {
  return `${r.policy.namespace}/${r.policy.name} ${dir}[${r.index}]`;
}
