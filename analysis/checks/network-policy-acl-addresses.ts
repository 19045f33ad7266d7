// The addresses in a pod's ACL rules held against the snapshot: Calico's Felix writes the members of a
// rule's IP sets (the selected pods' IPs) into each HNS ACL rule's RemoteAddresses and recomputes the
// rule when a set changes (projectcalico/calico felix/dataplane/windows/policysets/policysets.go,
// ProcessIpSetUpdate and protoRuleToHnsRules). So on a Calico node:
// - a single address in an ACL rule that no pod, node or IP block of the snapshot has is stale (the
//   pod is gone; a new pod given that address inherits the rule);
// - a pod a policy rule allows whose IP is in no allow rule, while other pods of that rule are, was
//   left out (the IP set update did not reach the endpoint).
import type { K8sNetworkPolicy } from '../../parsers/k8s/index.ts';
import type { VfpRule } from '../../parsers/vfp/types.ts';
import type { Finding, FindingEvidence } from '../findings/types.ts';
import { inCidr, policyIntent, selectingPolicies, type PolicyDir } from '../k8s/policy-eval.ts';
import type { CheckContext } from './context.ts';
import { intToIp } from './context.ts';
import { spend } from '../budget.ts';
import type { LocalPolicyPod } from './network-policy-acl.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { ruleAction } from '../walk/semantics.ts';

interface AclRuleAddrs {
  rule: VfpRule;
  dir: PolicyDir;
  allow: boolean;
  /** Single remote addresses the rule names. */
  addrs: string[];
  ev: FindingEvidence;
}

/** Addresses an ACL on this node may name without any pod holding them (Azure wireserver and IMDS, link-local). */
const PLATFORM = ['168.63.129.16/32', '169.254.0.0/16', '127.0.0.0/8'];

function aclRules(ctx: CheckContext, l: LocalPolicyPod): AclRuleAddrs[] {
  const pol = ctx.policy(l.ref);
  if (!pol) return [];
  const out: AclRuleAddrs[] = [];
  for (const l of pol.layers) {
    if (!/acl/i.test(`${l.friendlyName ?? ''} ${l.id}`)) continue;
    for (const g of l.groups) {
      const dir: PolicyDir | undefined = g.direction === 'IN' ? 'ingress' : g.direction === 'OUT' ? 'egress' : undefined;
      if (!dir) continue;
      for (const r of g.rules) {
        spend();
        // Ingress rules name the remote end as the source, egress rules as the destination.
        const want = dir === 'ingress' ? 'srcIp' : 'dstIp';
        const addrs = r.conditions.filter((c) => c.kind === want).flatMap((c) => (c.ipRanges ?? []).filter((x) => x.lo === x.hi).map((x) => intToIp(x.lo)));
        out.push({ rule: r, dir, allow: ruleAction(r) === 'allow', addrs, ev: { file: l.src.file, line: r.src.line, text: `layer ${l.friendlyName ?? l.id} group ${g.friendlyName ?? g.id} rule ${r.name}` } });
      }
    }
  }
  return out;
}

export function addressFindings(ctx: CheckContext, locals: LocalPolicyPod[], maxPods = 500): Finding[] {
  const snap = ctx.m.k8s!;
  const policies = snap.networkPolicies.filter((p) => p.flavour === 'kubernetes');
  const known = new Set<string>([...snap.pods.flatMap((p) => [...p.ips, ...(p.hostIp ? [p.hostIp] : [])]), ...snap.nodes.flatMap((n) => n.addresses.map((a) => a.address))]);
  const blocks = [...PLATFORM, ...snap.networkPolicies.flatMap((p) => [...p.ingress, ...p.egress].flatMap((r) => r.peers.flatMap((x) => [...(x.ipBlock ? [x.ipBlock.cidr] : []), ...(x.nets ?? [])])))];
  const stale = new Map<string, { addrs: Set<string>; pods: Set<string>; ev: FindingEvidence }>();
  const missing = new Map<string, { policy: K8sNetworkPolicy; label: string; missing: Set<string>; pods: Set<string>; ev: FindingEvidence[] }>();
  for (const l of locals.slice(0, maxPods)) {
    const rules = aclRules(ctx, l);
    const podName = `${l.pod.namespace}/${l.pod.name}`;
    for (const r of rules)
      for (const a of r.addrs)
        if (!known.has(a) && !blocks.some((b) => inCidr(a, b))) {
          const key = `${r.rule.name}`;
          let s = stale.get(key);
          if (!s) stale.set(key, (s = { addrs: new Set(), pods: new Set(), ev: r.ev }));
          s.addrs.add(a);
          s.pods.add(podName);
        }
    for (const dir of ['ingress', 'egress'] as PolicyDir[]) {
      const allowed = new Set(rules.filter((r) => r.dir === dir && r.allow).flatMap((r) => r.addrs));
      if (!allowed.size) continue;
      for (const policy of selectingPolicies(policies, l.pod, dir))
        (dir === 'ingress' ? policy.ingress : policy.egress).forEach((rule, index) => {
          // Only rules that name pods: an ipBlock or an empty peer list is rendered as a prefix or no address.
          if (!rule.peers.length || rule.peers.some((p) => p.ipBlock)) return;
          const peers = snap.pods.filter((p) => !p.hostNetwork && p.phase === 'Running' && p.ips.length && policyIntent([{ ...policy, ingress: [rule], egress: [rule] }], l.pod, { ip: p.ips[0] ?? '', pod: p }, dir, rule.ports[0]?.protocol ?? 'TCP', typeof rule.ports[0]?.port === 'number' ? rule.ports[0].port : undefined, snap.namespaces).allowed);
          const present = peers.filter((p) => p.ips.some((ip) => allowed.has(ip)));
          const absent = peers.filter((p) => !p.ips.some((ip) => allowed.has(ip)));
          if (!present.length || !absent.length) return;
          const label = `${policy.namespace}/${policy.name} ${dir}[${index}]`;
          let m = missing.get(label);
          if (!m) missing.set(label, (m = { policy, label, missing: new Set(), pods: new Set(), ev: [{ file: policy.src.file, line: policy.src.line, text: `NetworkPolicy ${policy.namespace}/${policy.name}` }, ...rules.filter((r) => r.dir === dir && r.allow && r.addrs.length).slice(0, 2).map((r) => r.ev)] }));
          for (const p of absent) m.missing.add(`${p.namespace}/${p.name} (${p.ips[0]})`);
          m.pods.add(podName);
        });
    }
  }
  const list = (s: Set<string>, n = 6) => `${[...s].slice(0, n).join(', ')}${s.size > n ? `, and ${s.size - n} more` : ''}`;
  const out: Finding[] = [];
  for (const [rule, s] of stale)
    out.push(ctx.hedge({
      id: 'network-policy-acl-stale-address', severity: 'warning', area: 'k8s',
      title: `ACL rule ${rule} names ${plural(s.addrs.size, 'address', 'addresses')} no pod has any more`,
      explanation: `On the ${s.pods.size === 1 ? 'endpoint' : 'endpoints'} of ${list(s.pods)}, ACL rule ${rule} names ${list(s.addrs)}; per the snapshot no pod, node or IP block of a policy has that address. A pod created later with that address inherits what this rule allows or blocks.`,
      fix: 'The policy agent did not update the rule when the pod went away: check its logs on this node (Calico: calico-felix) and restart it so it reprograms the endpoint\'s ACLs.',
      objects: [...s.pods].slice(0, 20),
      evidence: [s.ev],
    }, 'vfp'));
  for (const m of missing.values())
    out.push(ctx.hedge({
      id: 'network-policy-acl-missing-peer', severity: 'warning', area: 'k8s',
      title: `${m.label} allows pods whose address is in no ACL allow rule of the selected pods`,
      explanation: `Per the snapshot, ${m.label} allows ${list(m.missing)}, but on the ${m.pods.size === 1 ? 'endpoint' : 'endpoints'} of ${list(m.pods)} no ACL allow rule names their address while the rules name other pods the same policy rule allows. Traffic from or to them falls to the ACL's default rule.`,
      fix: 'The policy agent did not add the new pods to the rule: check its logs on this node (Calico: calico-felix) and restart it so it reprograms the endpoint\'s ACLs.',
      objects: [`${m.policy.namespace}/${m.policy.name}`, ...[...m.pods].slice(0, 19)],
      evidence: m.ev,
    }, 'vfp'));
  return out;
}
