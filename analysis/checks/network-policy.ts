// NetworkPolicies of the snapshot that select pods of this node, and who (if anyone) enforces them
// here. Each plugin renders policy its own way: Calico's Felix as HNS ACL policies on the endpoint
// (projectcalico/calico felix/dataplane/windows/policysets), Azure NPM as ACLs too (Azure/azure-container-
// networking npm/pkg/dataplane/policies, Windows), kube-proxy never. Flannel implements no
// NetworkPolicy at all (flannel-io/flannel README: "Flannel is focused on networking. For network policy,
// other projects such as Calico can be used"): on a Flannel node whose pod endpoints carry no ACL
// policy, a policy selecting its pods is not enforced. The rule-by-rule comparison of a policy with the
// node's ACL layers is network-policy-acl.ts (walks per pod pair and port) and network-policy-acl-addresses.ts.
import type { K8sNamespace, K8sNetworkPolicy, K8sPod } from '../../parsers/k8s/index.ts';
import type { Check } from './types.ts';
import type { CheckContext } from './context.ts';
import type { Finding } from '../findings/types.ts';
import { comparePolicies, comparisonFindings, MAX_POLICY_WALKS, type LocalPolicyPod } from './network-policy-acl.ts';
import { addressFindings } from './network-policy-acl-addresses.ts';
import { podIntent } from '../k8s/index.ts';
import { selects } from '../k8s/selectors.ts';
import { calicoUnmodelled, policyApplies } from '../k8s/calico-eval.ts';
import { policyName } from '../k8s/policy-eval.ts';
import { plural } from '../../parsers/text/quantities.ts';

export { selects };

/** Local pods of the snapshot joined to their endpoint's VFP port, when that port has an ACL layer. */
function localPolicyPods(ctx: CheckContext, pods: K8sPod[]): LocalPolicyPod[] {
  const out: LocalPolicyPod[] = [];
  for (const pod of pods) {
    const ep = ctx.localPods.find((e) => e.ip && pod.ips.includes(e.ip));
    const ref = ep && ctx.portOf(ep);
    const pol = ref && ctx.policy(ref);
    if (!ep?.ip || !ref || !pol?.layers.some((l) => /acl/i.test(`${l.friendlyName ?? ''} ${l.id}`))) continue;
    out.push({ pod, ip: ep.ip, port: ref.key, ref });
  }
  return out;
}

/** The pods a policy selects (either direction); Calico policies by their selector expressions, where they can be decided. */
const policyPods = (p: K8sNetworkPolicy, pods: K8sPod[], namespaces: K8sNamespace[]) => (p.flavour === 'kubernetes'
  ? (p.podSelector ? pods.filter((x) => x.namespace === p.namespace && selects(p.podSelector!, x.labels)) : [])
  : pods.filter((x) => policyApplies(p, x, 'ingress', namespaces) === true || policyApplies(p, x, 'egress', namespaces) === true));

export const networkPolicyCheck: Check = {
  id: 'network-policy',
  ids: ['network-policy-not-enforced', 'network-policy-not-verified', 'network-policy-acl-drops-allowed', 'network-policy-acl-allows-denied', 'network-policy-acl-stale-address', 'network-policy-acl-missing-peer'],
  title: 'NetworkPolicies on this node',
  platforms: 'any',
  assumes: 'Flannel enforces no NetworkPolicy; Calico renders policies as HNS ACLs on each pod endpoint with a default block (errors there); elsewhere an ACL layer is compared but differences are warnings',
  run(ctx) {
    const snap = ctx.m.k8s;
    if (!snap?.networkPolicies.length) return [];
    const pods = podIntent(ctx.m).pods;
    const calicoNode = ctx.platform.plugin === 'calico-vxlan' || ctx.platform.plugin === 'calico-bgp';
    const calico = snap.networkPolicies.filter((p) => p.flavour !== 'kubernetes');
    // Calico's own policies are evaluated only where Calico is the plugin; elsewhere they are said, not compared.
    const evaluated = calicoNode ? snap.networkPolicies : snap.networkPolicies.filter((p) => p.flavour === 'kubernetes');
    const hit = evaluated.map((p) => ({ p, pods: policyPods(p, pods, snap.namespaces) })).filter((x) => x.pods.length);
    if (!hit.length && !calico.length) return [];
    const name = policyName;
    const list = hit.slice(0, 5).map((x) => `${name(x.p)} (${x.pods.slice(0, 3).map((q) => q.name).join(', ')}${x.pods.length > 3 ? ', …' : ''})`).join('; ');
    const ev = hit.slice(0, 3).map((x) => ({ file: x.p.src.file, line: x.p.src.line, text: `${x.p.flavour === 'calico-global' ? 'GlobalNetworkPolicy' : 'NetworkPolicy'} ${name(x.p)} ${x.p.policyTypes.join('+')}` }));
    const anyAcl = ctx.localPods.some((e) => e.policies.some((p) => p.type.toLowerCase() === 'acl'));
    const flannel = ctx.platform.plugin === 'flannel-host-gw' || ctx.platform.plugin === 'flannel-vxlan';
    if (flannel && hit.length && !anyAcl && ctx.m.endpoints && ctx.platform.confidence !== 'low') {
      return [ctx.hedge({
        id: 'network-policy-not-enforced', severity: 'warning', area: 'k8s',
        title: `${plural(hit.length, 'NetworkPolicy', 'NetworkPolicies')} ${hit.length === 1 ? 'selects' : 'select'} pods of this node, but nothing here enforces ${hit.length === 1 ? 'it' : 'them'}`,
        explanation: `Per the snapshot, ${list}. This node runs ${ctx.platform.label}, which implements no NetworkPolicy, and none of its pod endpoints carries an HNS ACL policy: the traffic those policies deny is allowed here.`,
        fix: 'Use a network plugin that enforces NetworkPolicy on Windows (Calico for Windows, Azure NPM on AKS), or do not rely on NetworkPolicy for pods on this node.',
        objects: hit.slice(0, 20).map((x) => name(x.p)),
        evidence: ev,
      }, 'endpoints')];
    }
    const azure = ctx.platform.plugin.startsWith('azure-cni');
    // Azure NPM on Windows runs as the azure-npm-win DaemonSet in kube-system (inferred from its pod
    // name; Azure/azure-container-networking npm/ deploys it): without such a pod nothing renders policy on AKS.
    const npm = azure && snap.pods.some((p) => p.namespace === 'kube-system' && /^azure-npm/.test(p.name));
    if (azure && !npm && hit.length && ctx.platform.confidence !== 'low') {
      return [{
        id: 'network-policy-not-enforced', severity: 'warning', area: 'k8s',
        title: `${plural(hit.length, 'NetworkPolicy', 'NetworkPolicies')} ${hit.length === 1 ? 'selects' : 'select'} pods of this node, but no policy agent runs in the cluster`,
        explanation: `Per the snapshot, ${list}. This node runs ${ctx.platform.label} and the snapshot has no Azure NPM pod (azure-npm-win in kube-system; inferred from its name), so nothing renders these policies as ACLs here: the traffic they deny is allowed.`,
        fix: 'Enable a network policy engine for Windows nodes (Azure NPM: `--network-policy azure`), or do not rely on NetworkPolicy for pods on this node.',
        objects: hit.slice(0, 20).map((x) => name(x.p)),
        evidence: ev,
      }];
    }
    // Calico policies that cannot be evaluated (a tier other than default, service account selectors …), with the local pods they select.
    const unverifiable = calicoNode ? calico.flatMap((p) => { const why = calicoUnmodelled(p); return why ? [{ p, why, pods: policyPods(p, pods.filter((x) => ctx.localPods.some((e) => e.ip && x.ips.includes(e.ip))), snap.namespaces).map((x) => `${x.namespace}/${x.name}`) }] : []; }) : [];
    const ovs = ctx.platform.plugin === 'antrea' || ctx.platform.plugin === 'ovn-kubernetes';
    const locals = calicoNode || npm ? localPolicyPods(ctx, pods) : [];
    const out: Finding[] = [];
    let why: string;
    let unknownWhy: string | undefined;
    if (!calicoNode && !npm) {
      why = !hit.length ? '' : ovs ? `Not verifiable: ${ctx.platform.label} enforces NetworkPolicy in its Open vSwitch bridge, not in VFP, and the bundle holds no OVS flow dump.` : `Not verifiable: insufficient information: which agent renders NetworkPolicy on ${ctx.platform.label} is not known to hnsight.`;
    } else if (hit.length && locals.length) {
      const c = comparePolicies(ctx, locals, MAX_POLICY_WALKS, calicoNode && calico.length ? 'calico' : 'kubernetes');
      unknownWhy = c.unknownWhy;
      out.push(...comparisonFindings(ctx, c, calicoNode && ctx.platform.confidence !== 'low'), ...(calicoNode ? addressFindings(ctx, locals) : []));
      const notes = [
        c.capped ? `not every pair was compared: at most ${MAX_POLICY_WALKS} walks per node, shared equally among its pods and directions` : '',
        c.unknown ? `${plural(c.unknown, 'pod pair')} of ${[...c.unknownPods].slice(0, 5).join(', ')}${c.unknownPods.size > 5 ? ', …' : ''} not compared: ${c.unknownWhy?.startsWith('not verifiable') ? c.unknownWhy : `insufficient information: needs ${c.unknownWhy}`}` : '',
      ].filter(Boolean);
      if (!notes.length && !unverifiable.length) return out;
      why = `Compared ${plural(c.walks, 'pod pair and port', 'pod pairs and ports')} with the pods' ACL layers; ${notes.join('; ')}.`;
    } else {
      why = !hit.length ? '' : !ctx.m.vfp ? 'Not verifiable: insufficient information: needs the VFP rule dump (vfpctrl /list-rule per port) of the pod ports.' : `Not verifiable: no pod endpoint of this node has an ACL layer in its VFP rules, so nothing on ${ctx.platform.label} renders these policies here (kube-proxy never does).`;
    }
    const all = [...hit.map((x) => x.p), ...calico.filter((p) => !hit.some((x) => x.p === p))];
    // A reason the comparison note already gives is not repeated.
    const notSaid = unverifiable.filter((x) => x.why !== unknownWhy);
    const calicoText = !calico.length ? ''
      : !calicoNode ? `${plural(calico.length, 'Calico policy', 'Calico policies')} (${calico.slice(0, 3).map(name).join(', ')}) ${calico.length === 1 ? 'is' : 'are'} in the snapshot, but this node does not run Calico: not compared. `
        : notSaid.length ? `Not verifiable: ${notSaid.slice(0, 3).map((x) => `${x.why.replace(/^not verifiable: /, '')}${x.pods.length ? ` (pods of this node it selects: ${x.pods.slice(0, 3).join(', ')}${x.pods.length > 3 ? ', …' : ''})` : ''}`).join('; ')}. ` : '';
    if (!why && !calicoText) return out;
    out.push({
      id: 'network-policy-not-verified', severity: 'info', area: 'k8s',
      title: `${plural(all.length, 'network policy', 'network policies')} ${all.length === 1 ? 'applies' : 'apply'} here; not fully compared with the node's ACLs`,
      explanation: `${hit.length ? `Per the snapshot, ${list}. ` : ''}${why ? `${why} ` : ''}${calicoText}`.trim(),
      fix: 'Walk the pod pairs and ports the policy is about (`hnsight trace`), and compare with the policy.',
      objects: all.slice(0, 20).map(name),
      evidence: ev.length ? ev : calico.slice(0, 3).map((p) => ({ file: p.src.file, line: p.src.line, text: `${p.flavour === 'calico-global' ? 'GlobalNetworkPolicy' : 'NetworkPolicy'} ${name(p)}` })),
    });
    return out;
  },
};
