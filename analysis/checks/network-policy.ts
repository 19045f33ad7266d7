// NetworkPolicies of the snapshot that select pods of this node, and who (if anyone) enforces them
// here. Each plugin renders policy its own way: Calico's Felix as HNS ACL policies on the endpoint
// (projectcalico/calico felix/dataplane/windows/policysets), Azure NPM as ACLs too (Azure/azure-container-
// networking npm/pkg/dataplane/policies, Windows), kube-proxy never. Flannel implements no
// NetworkPolicy at all (flannel-io/flannel README: "Flannel is focused on networking. For network policy,
// other projects such as Calico can be used"): on a Flannel node whose pod endpoints carry no ACL
// policy, a policy selecting its pods is not enforced. The rule-by-rule comparison of a policy with the
// node's ACL layers (walks per pod pair and port) is not done yet: said as "not verified" elsewhere.
import type { K8sLabelSelector, K8sNetworkPolicy, K8sPod } from '../../parsers/k8s/index.ts';
import type { Check } from './types.ts';
import { podIntent } from '../k8s/index.ts';

/** metav1.LabelSelector semantics: every matchLabels pair and every expression must hold; empty selects all. */
export function selects(sel: K8sLabelSelector, labels: Record<string, string>): boolean {
  if (!Object.entries(sel.matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return sel.matchExpressions.every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In': return has && e.values.includes(labels[e.key]);
      case 'NotIn': return !has || !e.values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
}

const policyPods = (p: K8sNetworkPolicy, pods: K8sPod[]) => (p.flavour === 'kubernetes' && p.podSelector ? pods.filter((x) => x.namespace === p.namespace && selects(p.podSelector!, x.labels)) : []);

export const networkPolicyCheck: Check = {
  id: 'network-policy',
  ids: ['network-policy-not-enforced', 'network-policy-not-verified'],
  title: 'NetworkPolicies on this node',
  platforms: 'any',
  assumes: 'Flannel enforces no NetworkPolicy; Calico and Azure NPM render policies as HNS ACLs, which hnsight does not yet compare rule by rule',
  run(ctx) {
    const snap = ctx.m.k8s;
    if (!snap?.networkPolicies.length) return [];
    const pods = podIntent(ctx.m).pods;
    const hit = snap.networkPolicies.map((p) => ({ p, pods: policyPods(p, pods) })).filter((x) => x.pods.length);
    const calico = snap.networkPolicies.filter((p) => p.flavour !== 'kubernetes');
    if (!hit.length && !calico.length) return [];
    const name = (p: K8sNetworkPolicy) => `${p.namespace ? `${p.namespace}/` : ''}${p.name}`;
    const list = hit.slice(0, 5).map((x) => `${name(x.p)} (${x.pods.slice(0, 3).map((q) => q.name).join(', ')}${x.pods.length > 3 ? ', …' : ''})`).join('; ');
    const ev = hit.slice(0, 3).map((x) => ({ file: x.p.src.file, line: x.p.src.line, text: `NetworkPolicy ${name(x.p)} ${x.p.policyTypes.join('+')}` }));
    const anyAcl = ctx.localPods.some((e) => e.policies.some((p) => p.type.toLowerCase() === 'acl'));
    const flannel = ctx.platform.plugin === 'flannel-host-gw' || ctx.platform.plugin === 'flannel-vxlan';
    if (flannel && hit.length && !anyAcl && ctx.m.endpoints && ctx.platform.confidence !== 'low') {
      return [ctx.hedge({
        id: 'network-policy-not-enforced', severity: 'warning', area: 'k8s',
        title: `${hit.length} NetworkPolicy(ies) select pods of this node, but nothing here enforces them`,
        explanation: `Per the snapshot, ${list}. This node runs ${ctx.platform.label}, which implements no NetworkPolicy, and none of its pod endpoints carries an HNS ACL policy: the traffic those policies deny is allowed here.`,
        fix: 'Use a network plugin that enforces NetworkPolicy on Windows (Calico for Windows, Azure NPM on AKS), or do not rely on NetworkPolicy for pods on this node.',
        objects: hit.slice(0, 20).map((x) => name(x.p)),
        evidence: ev,
      }, 'endpoints')];
    }
    const all = [...hit.map((x) => x.p), ...calico.filter((p) => !hit.some((x) => x.p === p))];
    return [{
      id: 'network-policy-not-verified', severity: 'info', area: 'k8s',
      title: `${all.length} network policy(ies) apply here; not compared with the node's ACLs`,
      explanation: `${hit.length ? `Per the snapshot, ${list}. ` : ''}${calico.length ? `${calico.length} Calico policy(ies) (${calico.slice(0, 3).map(name).join(', ')}) use selector expressions hnsight does not evaluate. ` : ''}Not verifiable yet: hnsight does not compare a policy's rules with the ACL rules ${ctx.platform.label} programmed in VFP; walk a pod pair to see what the node's ACL layers do.`,
      fix: 'Walk the pod pairs and ports the policy is about (`hnsight trace`), and compare with the policy.',
      objects: all.slice(0, 20).map(name),
      evidence: ev.length ? ev : calico.slice(0, 3).map((p) => ({ file: p.src.file, line: p.src.line, text: `${p.flavour === 'calico-global' ? 'GlobalNetworkPolicy' : 'NetworkPolicy'} ${name(p)}` })),
    }];
  },
};
