// What Calico decides for one packet of a pod, from the snapshot's Calico NetworkPolicies and
// GlobalNetworkPolicies together with its Kubernetes NetworkPolicies, evaluated as Felix does
// (docs.tigera.io/calico/latest/reference/resources/tier "How policy is evaluated"; projectcalico/calico
// libcalico-go/lib/backend/k8s/conversion/conversion.go puts every Kubernetes NetworkPolicy in the
// default tier at order 1000; libcalico-go/lib/backend/model/policy.go PolicyNameLessThan breaks ties
// by name):
// - the policies of the direction that select the pod, lowest order first (no order: last), then by
//   name; each policy's rules in order: the first rule that matches decides — Allow, Deny, Pass (to the
//   next tier; with only the default tier, to the namespace's profile `kns.<ns>`, which allows all);
//   Log records and goes on;
// - a policy whose rules all miss hands on to the next one; when policies select the pod and none
//   decides, the end of the tier denies; a pod no policy selects gets its profile: allowed.
// A Calico endpoint's labels are the pod's, plus projectcalico.org/namespace, projectcalico.org/
// orchestrator and projectcalico.org/serviceaccount, plus its namespace's labels as `pcns.<key>`
// (conversion.NamespaceLabelPrefix). A namespaceSelector is evaluated on the namespace's labels plus
// projectcalico.org/name. In a namespaced policy a rule's selector means endpoints of that namespace
// unless a namespaceSelector is given; in a GlobalNetworkPolicy, endpoints of every namespace.
// Not modelled, and so "not verifiable" for the pods they touch: tiers other than default,
// serviceAccountSelector, doNotTrack / preDNAT, HTTP matches, serviceAccounts / services in a rule,
// and a selector tested on an address no pod holds (network sets and host endpoints are not read).
import type { CalicoEntity, K8sNamespace, K8sNetworkPolicy, K8sPod, K8sPolicyPort, K8sPolicyRule } from '../../parsers/k8s/index.ts';
import { evalSelector, parseCalicoSelector, type LabelLookup, type SelectorNode, type Tri } from './calico-selector.ts';
import { inCidr, k8sRuleMatches, namedPortMatches, namespaceLabels, NS_NAME, policyName, type IntentVerdict, type PolicyDir, type PolicyPeer, type RuleRef } from './policy-eval.ts';
import { selects } from './selectors.ts';

/** Calico's order for converted Kubernetes NetworkPolicies. */
const K8S_ORDER = 1000;
const NS_LABEL = 'projectcalico.org/namespace';
const NAME_LABEL = 'projectcalico.org/name';

const cache = new Map<string, ReturnType<typeof parseCalicoSelector>>();
function parsed(text: string): { ok: true; node: SelectorNode } | { ok: false; error: string } {
  let r = cache.get(text);
  if (!r) {
    if (cache.size > 5000) cache.clear();
    cache.set(text, (r = parseCalicoSelector(text)));
  }
  return r;
}

/** Evaluates a selector text; a selector Calico would reject is said (the policy is not in force as written). */
function sel(text: string | undefined, get: LabelLookup, where: string): Tri {
  if (text === undefined) return true;
  const p = parsed(text);
  if (!p.ok) return `not verifiable: the selector "${text.slice(0, 80)}" of ${where} does not parse (${p.error})`;
  return evalSelector(p.node, get);
}

/** The labels Calico gives a pod's workload endpoint. */
function endpointLabels(pod: K8sPod, namespaces: K8sNamespace[]): LabelLookup {
  return (key) => {
    if (key === NS_LABEL) return pod.namespace;
    if (key === 'projectcalico.org/orchestrator') return 'k8s';
    if (key === 'projectcalico.org/serviceaccount') return pod.serviceAccount ?? { unknown: `the service account of ${pod.namespace}/${pod.name} (spec.serviceAccountName)` };
    if (key.startsWith('pcsa.')) return { unknown: `the labels of the service account of ${pod.namespace}/${pod.name}` };
    if (key.startsWith('pcns.')) {
      const l = namespaceLabels(pod.namespace, namespaces, [key.slice(5)]);
      return typeof l === 'string' ? { unknown: l } : l[key.slice(5)];
    }
    return Object.prototype.hasOwnProperty.call(pod.labels, key) ? pod.labels[key] : undefined;
  };
}

/** The labels a namespaceSelector sees for a namespace. */
function namespaceLookup(ns: string, namespaces: K8sNamespace[]): LabelLookup {
  return (key) => {
    if (key === NAME_LABEL || key === NS_NAME) return ns;
    const l = namespaceLabels(ns, namespaces, [key]);
    return typeof l === 'string' ? { unknown: l } : l[key];
  };
}

const and = (...xs: (() => Tri)[]): Tri => {
  let unknown: string | undefined;
  for (const f of xs) {
    const r = f();
    if (r === false) return false;
    if (typeof r === 'string') unknown ??= r;
  }
  return unknown ?? true;
};

const protoOk = (want: string | undefined, proto: string) => want === undefined || want === proto || (want === '6' && proto === 'TCP') || (want === '17' && proto === 'UDP');

function portIn(ports: K8sPolicyPort[], proto: string, port: number | undefined, owner: K8sPod | undefined): Tri {
  let unknown: string | undefined;
  for (const p of ports) {
    if (typeof p.port === 'string') {
      const r = port === undefined ? `the source port of the packet (a rule names source ports)` : namedPortMatches(p.port, proto, port, owner);
      if (r === true) return true;
      if (typeof r === 'string') unknown ??= r;
      continue;
    }
    if (p.port === undefined) return true;
    if (port === undefined) { unknown ??= 'the source port of the packet (a rule names source ports)'; continue; }
    if (port >= p.port && port <= (p.endPort ?? p.port)) return true;
  }
  return unknown ?? false;
}

/** Does one end of a rule hold for this endpoint (`ip`, its pod if any, the port on that side)? */
function entityMatches(e: CalicoEntity, ip: string, pod: K8sPod | undefined, port: number | undefined, proto: string, policy: K8sNetworkPolicy, namespaces: K8sNamespace[]): Tri {
  const where = `${policyName(policy)}`;
  if (e.unmodelled.length) return `not verifiable: ${where} matches on ${e.unmodelled.join(' and ')}, which hnsight does not model`;
  const usesSelector = e.selector !== undefined || e.notSelector !== undefined || e.namespaceSelector !== undefined;
  return and(
    () => !e.nets.length || e.nets.some((n) => inCidr(ip, n) === true),
    () => !e.notNets.some((n) => inCidr(ip, n) === true),
    () => {
      if (!usesSelector) return true;
      if (!pod) return `not verifiable: ${where} selects by labels, and ${ip} is no pod of the snapshot (network sets and host endpoints are not read)`;
      const labels = endpointLabels(pod, namespaces);
      // The namespaces a rule's selector reaches: its namespaceSelector's, else the policy's own (namespaced), else all.
      const inNs = e.namespaceSelector !== undefined
        ? sel(e.namespaceSelector, namespaceLookup(pod.namespace, namespaces), where)
        : policy.flavour === 'calico' ? pod.namespace === policy.namespace : true;
      return and(() => inNs, () => sel(e.selector, labels, where), () => (e.notSelector === undefined ? true : (() => { const r = sel(e.notSelector, labels, where); return typeof r === 'string' ? r : !r; })()));
    },
    () => (!e.ports.length ? true : portIn(e.ports, proto, port, pod)),
    () => (!e.notPorts.length ? true : (() => { const r = portIn(e.notPorts, proto, port, pod); return typeof r === 'string' ? r : !r; })()),
  );
}

function calicoRuleMatches(policy: K8sNetworkPolicy, rule: K8sPolicyRule, pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number | undefined, namespaces: K8sNamespace[]): Tri {
  const c = rule.calico;
  if (!c) return false;
  if (c.unmodelled.length) return `not verifiable: ${policyName(policy)} matches on ${c.unmodelled.join(' and ')}, which hnsight does not model`;
  if (!protoOk(c.protocol, proto)) return false;
  if (c.notProtocol !== undefined && protoOk(c.notProtocol, proto)) return false;
  // Only IPv4 packets are compared.
  if (c.ipVersion === 6) return false;
  const me = { ip: pod.ips.find((x) => /^\d+\.\d+\.\d+\.\d+$/.test(x)) ?? pod.ips[0] ?? '', pod };
  const [src, dst] = dir === 'ingress' ? [peer, me] : [me, peer];
  return and(
    () => entityMatches(c.source, src.ip, src.pod, undefined, proto, policy, namespaces),
    () => entityMatches(c.destination, dst.ip, dst.pod, port, proto, policy, namespaces),
  );
}

/** Does the policy (any flavour) apply to `pod` in `dir`? true, false, or why it cannot be said. */
export function policyApplies(p: K8sNetworkPolicy, pod: K8sPod, dir: PolicyDir, namespaces: K8sNamespace[]): Tri {
  if (!p.policyTypes.includes(dir === 'ingress' ? 'Ingress' : 'Egress')) return false;
  if (p.flavour === 'kubernetes') return p.namespace === pod.namespace && !!p.podSelector && selects(p.podSelector, pod.labels);
  if (p.flavour === 'calico' && p.namespace !== pod.namespace) return false;
  const where = policyName(p);
  return and(
    () => (p.calicoNamespaceSelector === undefined ? true : sel(p.calicoNamespaceSelector, namespaceLookup(pod.namespace, namespaces), where)),
    () => sel(p.calicoSelector, endpointLabels(pod, namespaces), where),
  );
}

const orderOf = (p: K8sNetworkPolicy) => (p.flavour === 'kubernetes' ? K8S_ORDER : (p.order ?? Infinity));
/** The name Calico sorts by: `knp.default.<name>` for a converted Kubernetes policy, namespaced ones under their namespace. */
const sortName = (p: K8sNetworkPolicy) => (p.flavour === 'kubernetes' ? `${p.namespace}/knp.default.${p.name}` : p.flavour === 'calico' ? `${p.namespace}/${p.name}` : p.name);

/** The policies (every flavour) that apply to `pod` in `dir`, in Calico's order; `unknown` when selection cannot be decided. */
export function calicoApplicable(policies: K8sNetworkPolicy[], pod: K8sPod, dir: PolicyDir, namespaces: K8sNamespace[]): { policies: K8sNetworkPolicy[]; unknown?: string } {
  const out: K8sNetworkPolicy[] = [];
  let unknown: string | undefined;
  for (const p of policies) {
    const a = policyApplies(p, pod, dir, namespaces);
    if (a === true) out.push(p);
    else if (typeof a === 'string') unknown ??= a;
  }
  out.sort((a, b) => orderOf(a) - orderOf(b) || (sortName(a) < sortName(b) ? -1 : sortName(a) > sortName(b) ? 1 : 0));
  return { policies: out, ...(unknown ? { unknown } : {}) };
}

/** Why a policy cannot be evaluated here, if it cannot. */
export function calicoUnmodelled(p: K8sNetworkPolicy): string | undefined {
  if (p.flavour === 'kubernetes') return undefined;
  if (p.tier && p.tier !== 'default') return `not verifiable: ${policyName(p)} is in tier "${p.tier}"; hnsight evaluates only the default tier`;
  if (p.unmodelled?.length) return `not verifiable: ${policyName(p)} uses ${p.unmodelled.join(' and ')}, which hnsight does not model`;
  return undefined;
}

/**
 * Calico's verdict for a packet between `pod` (destination for ingress, source for egress) and
 * `peer` on `proto`/`port` (the destination port). `unknown` set: not decided (the reason is said).
 */
export function calicoIntent(policies: K8sNetworkPolicy[], pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number | undefined, namespaces: K8sNamespace[] = []): IntentVerdict {
  const { policies: selecting, unknown: selUnknown } = calicoApplicable(policies, pod, dir, namespaces);
  const undecided = (why: string): IntentVerdict => ({ allowed: false, selecting, allowedBy: [], unknown: why });
  if (selUnknown) return undecided(selUnknown);
  // A policy of another tier may decide before or after the default tier (tiers have their own order):
  // any verdict for a pod it selects is undecided.
  const tiered = selecting.find((p) => p.flavour !== 'kubernetes' && p.tier && p.tier !== 'default');
  if (tiered) return undecided(calicoUnmodelled(tiered) ?? 'not verifiable: a policy of another tier selects the pod');
  const P = proto.toUpperCase();
  // A rule whose match is unknown is stepped over; the verdict stands only if every such rule, had it
  // matched, would have given the same answer (an Allow after unknown Allow rules is still an Allow).
  const pending: { allow: boolean; why: string }[] = [];
  const settle = (v: IntentVerdict): IntentVerdict => {
    const differs = pending.find((x) => x.allow !== v.allowed);
    return differs ? undecided(differs.why) : v;
  };
  for (const policy of selecting) {
    const why = calicoUnmodelled(policy);
    if (why) return undecided(why);
    const rules = dir === 'ingress' ? policy.ingress : policy.egress;
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index];
      if (!rule || rule.action === 'Log') continue;
      const m = policy.flavour === 'kubernetes' ? k8sRuleMatches(policy, rule, pod, peer, dir, P, port, namespaces) : calicoRuleMatches(policy, rule, pod, peer, dir, P, port, namespaces);
      if (typeof m === 'string') { pending.push({ allow: rule.action !== 'Deny', why: m }); continue; }
      if (!m) continue;
      const ref: RuleRef = { policy, index };
      if (rule.action === 'Allow') return settle({ allowed: true, selecting, allowedBy: [ref] });
      if (rule.action === 'Deny') return settle({ allowed: false, selecting, allowedBy: [], deniedBy: ref });
      // Pass: on to the next tier; with the default tier only, the namespace's profile, which allows all.
      return settle({ allowed: true, selecting, allowedBy: [], passedBy: ref });
    }
  }
  // Selected and not decided: the end of the tier denies. Not selected: the profile allows.
  return settle({ allowed: !selecting.length, selecting, allowedBy: [] });
}
