// What the Kubernetes NetworkPolicies of a snapshot say about one packet, per the API's semantics
// (kubernetes.io/docs/concepts/services-networking/network-policies/; k8s.io/api networking/v1
// types.go): a pod selected by no policy of a direction is allowed in that direction; a selected pod
// is allowed what the union of the selecting policies' rules of that direction allows. A rule with no
// peers matches every peer, with no ports every port; a peer's podSelector alone means pods of the
// policy's namespace; namespaceSelector picks namespaces by their labels — read from the snapshot's
// Namespace objects when it has them; without them only `kubernetes.io/metadata.name` (set by the API
// on every namespace since 1.21) is known, and a selector on another label is "insufficient
// information: needs namespaces". A named port (`port: "http"`) is resolved on the destination pod:
// a container port of that name and protocol (NetworkPolicyPort.port: "a named port on a pod"); a
// name no container of the destination declares, or a destination that is no pod, matches nothing.
// Calico's own policies are evaluated in calico-eval.ts.
import type { K8sLabelSelector, K8sNamespace, K8sNetworkPolicy, K8sPod, K8sPolicyPeer, K8sPolicyPort, K8sPolicyRule } from '../../parsers/k8s/index.ts';
import { selects } from './selectors.ts';
import { ipv4ToUint, prefixRange4 } from '../../parsers/net/ip.ts';

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
  /** Calico: the rule that denies it (a Deny action), when one does. */
  deniedBy?: RuleRef;
  /** Calico: the rule that passes it on (Pass) to the namespace's profile, which allows it. */
  passedBy?: RuleRef;
  /** Set when the answer depends on something the snapshot does not hold (then `allowed` is a guess not to act on). */
  unknown?: string;
}

export const NS_NAME = 'kubernetes.io/metadata.name';

/**
 * The labels of namespace `ns`: from the snapshot's Namespace objects when it has them (plus
 * kubernetes.io/metadata.name, which the API always sets), else only the name label; a string says
 * what is missing when a selector needs more.
 */
export function namespaceLabels(ns: string, namespaces: K8sNamespace[], keys: string[]): Record<string, string> | string {
  if (namespaces.length) {
    const n = namespaces.find((x) => x.name === ns);
    if (!n) return `namespace ${ns} (the snapshot's Namespace list does not hold it)`;
    return { ...n.labels, [NS_NAME]: ns };
  }
  const other = keys.find((k) => k !== NS_NAME);
  if (other) return `namespaces (kubectl get namespaces -o json): the label "${other}" of namespace ${ns} is not known`;
  return { [NS_NAME]: ns };
}

function nsSelects(sel: K8sLabelSelector, ns: string, namespaces: K8sNamespace[]): boolean | string {
  const labels = namespaceLabels(ns, namespaces, [...Object.keys(sel.matchLabels), ...sel.matchExpressions.map((e) => e.key)]);
  return typeof labels === 'string' ? labels : selects(sel, labels);
}

/** Is `ip` inside `cidr` (IPv4; a bare address is a /32)? undefined when either is not IPv4. */
export function inCidr(ip: string, cidr: string): boolean | undefined {
  const a = ipv4ToUint(ip);
  const r = prefixRange4(cidr);
  if (a === undefined || r === undefined) return undefined;
  return a >= r.lo && a <= r.hi;
}

/** true / false, or the missing information as a string. */
function peerMatches(p: K8sPolicyPeer, policyNs: string, peer: PolicyPeer, namespaces: K8sNamespace[]): boolean | string {
  if (p.ipBlock) {
    if (!inCidr(peer.ip, p.ipBlock.cidr)) return false;
    return !p.ipBlock.except.some((e) => inCidr(peer.ip, e));
  }
  if (!p.podSelector && !p.namespaceSelector) return false;
  const pod = peer.pod;
  if (!pod) return false;
  if (p.namespaceSelector) {
    const ns = nsSelects(p.namespaceSelector, pod.namespace, namespaces);
    if (ns !== true) return ns;
  } else if (pod.namespace !== policyNs) return false;
  return p.podSelector ? selects(p.podSelector, pod.labels) : true;
}

/**
 * Does the named port `name` of the destination pod on `proto` equal `port`? A destination that is
 * no pod, or declares no container port of that name, matches nothing; a pod the snapshot has no
 * spec.containers for is unknown.
 */
export function namedPortMatches(name: string, proto: string, port: number | undefined, dst: K8sPod | undefined): boolean | string {
  if (!dst) return false;
  if (!dst.containerPorts) return `the pods' containers (spec.containers), to resolve the port named "${name}" of ${dst.namespace}/${dst.name}`;
  return port !== undefined && dst.containerPorts.some((c) => c.name === name && c.protocol === proto.toUpperCase() && c.port === port);
}

/** The numbers the named port `name` stands for on `dst` (none when it declares no such port). */
export function resolveNamedPort(name: string, proto: string, dst: K8sPod | undefined): number[] {
  return (dst?.containerPorts ?? []).filter((c) => c.name === name && c.protocol === proto.toUpperCase()).map((c) => c.port);
}

function portMatches(ports: K8sPolicyPort[], proto: string, port: number | undefined, dst: K8sPod | undefined): boolean | string {
  if (!ports.length) return true;
  let missing: string | undefined;
  for (const p of ports) {
    if (p.protocol.toUpperCase() !== proto.toUpperCase()) continue;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      if (/^\d+$/.test(p.port)) { if (Number(p.port) === port) return true; continue; }
      const r = namedPortMatches(p.port, proto, port, dst);
      if (r === true) return true;
      if (typeof r === 'string') missing ??= r;
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
export function policyIntent(policies: K8sNetworkPolicy[], pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number | undefined, namespaces: K8sNamespace[] = []): IntentVerdict {
  const selecting = selectingPolicies(policies, pod, dir);
  if (!selecting.length) return { allowed: true, selecting, allowedBy: [] };
  const allowedBy: RuleRef[] = [];
  let unknown: string | undefined;
  for (const policy of selecting) {
    (dir === 'ingress' ? policy.ingress : policy.egress).forEach((rule, index) => {
      const r = k8sRuleMatches(policy, rule, pod, peer, dir, proto, port, namespaces);
      if (r === true) allowedBy.push({ policy, index });
      else if (typeof r === 'string') unknown ??= r;
    });
  }
  return allowedBy.length ? { allowed: true, selecting, allowedBy } : { allowed: false, selecting, allowedBy, ...(unknown ? { unknown } : {}) };
}

/** Does one rule of a Kubernetes policy match the packet? true, false, or what is missing to say. */
export function k8sRuleMatches(policy: K8sNetworkPolicy, rule: K8sPolicyRule, pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number | undefined, namespaces: K8sNamespace[]): boolean | string {
  // The destination port is the pod's own for ingress, the peer's for egress.
  const ports = portMatches(rule.ports, proto, port, dir === 'ingress' ? pod : peer.pod);
  if (ports === false) return false;
  let peers: boolean | string = rule.peers.length === 0;
  for (const p of rule.peers) {
    const r = peerMatches(p, policy.namespace ?? '', peer, namespaces);
    if (r === true) { peers = true; break; }
    if (typeof r === 'string') peers = r;
  }
  if (peers === false) return false;
  if (peers === true && ports === true) return true;
  return typeof peers === 'string' ? peers : (ports as string);
}

/** A policy as people name it: `ns/name` (Kubernetes), `ns/name (Calico)`, `name (Calico global)`. */
export function policyName(p: K8sNetworkPolicy): string {
  return p.flavour === 'kubernetes' ? `${p.namespace}/${p.name}` : p.flavour === 'calico' ? `${p.namespace}/${p.name} (Calico)` : `${p.name} (Calico global)`;
}

/** `ns/name ingress[0]`. */
export function ruleLabel(r: RuleRef, dir: PolicyDir): string {
  return `${policyName(r.policy)} ${dir}[${r.index}]`;
}
