// Kubernetes NetworkPolicies held against what the node's ACL layers do, packet by packet: for every
// local pod as destination (ingress) and as source (egress), the peers that matter (the snapshot's
// other pods, and an address inside and outside each ipBlock's exceptions) on the ports that matter
// (the ports the selecting policies name, the Service target ports of the pod or peer), the intent
// (analysis/k8s/policy-eval.ts) is compared with the walk's verdict (walkFlow, the single source of
// truth for what the node does) where an ACL layer on the pod's own VFP port decides it.
//
// Calico's Felix renders each endpoint's policies as HNS ACL policies in order, static rules first,
// ends each direction with a default block rule, and names each rule `<policy set id>-<rule id>-<n>`
// when HNS supports rule ids (projectcalico/calico felix/dataplane/windows/policysets/policysets.go,
// GetPolicySetRules and protoRuleToHnsRules): the rule that decides instead names the policy when the
// VFP rule carries that id. Azure NPM programs ACLs through HNS too (Azure/azure-container-networking
// npm/pkg/dataplane/policies, Windows) but hnsight has no public dump of its rules: there a difference
// is a warning, not an error.
import type { K8sNetworkPolicy, K8sPod, K8sService } from '../../parsers/k8s/index.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import type { Finding, FindingEvidence } from '../findings/types.ts';
import type { Flow, WalkHop, WalkResult } from '../walk/types.ts';
import { walkFlow } from '../walk/engine.ts';
import { policyIntent, policyName, resolveNamedPort, ruleLabel, selectingPolicies, type IntentVerdict, type PolicyDir, type PolicyPeer } from '../k8s/policy-eval.ts';
import { calicoApplicable, calicoIntent } from '../k8s/calico-eval.ts';
import { selects } from '../k8s/selectors.ts';
import type { CheckContext } from './context.ts';
import { spend } from '../budget.ts';
import { firstHostOf } from '../../parsers/net/ip.ts';
import { plural } from '../../parsers/text/quantities.ts';

/** Most walks the comparison makes on one node; beyond, the result says it was capped. */
export const MAX_POLICY_WALKS = 3000;
const v4 = (ip: string) => /^\d+\.\d+\.\d+\.\d+$/.test(ip);
const isAclLayer = (l: string | undefined) => !!l && /acl/i.test(l);

export interface LocalPolicyPod {
  pod: K8sPod;
  ip: string;
  /** Lower-case VFP port name of its endpoint. */
  port: string;
  ref: VfpPortRef;
}

export interface AclDecision {
  verdict: 'allow' | 'deny';
  hop: WalkHop;
}

/** What the ACL layers of `port` did to this walk; undefined when the walk never reached them or they did not decide. */
export function aclDecision(w: WalkResult, port: string): AclDecision | undefined {
  const hops = w.hops.filter((h) => h.port?.toLowerCase() === port && isAclLayer(h.layer) && !h.superseded);
  if (!hops.length) return undefined;
  if (hops.some((h) => h.ambiguous || h.unmodelled)) return undefined;
  const decider = w.hops[w.deciding];
  if (w.verdict === 'dropped' && decider && hops.includes(decider)) return { verdict: 'deny', hop: decider };
  // By the hop's effect, not its printed action (a block rule however its type is spelled, semantics.ts).
  const passed = hops.filter((h) => h.effect?.kind !== 'block');
  const last = passed[passed.length - 1];
  return passed.length === hops.length && last ? { verdict: 'allow', hop: last } : undefined;
}

type Kind = 'dropped' | 'allowed';

interface Group {
  kind: Kind;
  dir: PolicyDir;
  /** `ns/name ingress[0]`, or the selecting policies when none allows. */
  rule: string;
  policies: K8sNetworkPolicy[];
  vfpRules: Map<string, FindingEvidence>;
  pairs: string[];
  /** The pods of this node concerned. */
  pods: Set<string>;
  trace: Flow;
}

function servicePorts(services: K8sService[], pod: K8sPod): { proto: string; port: number }[] {
  const out: { proto: string; port: number }[] = [];
  for (const s of services) {
    if (s.namespace !== pod.namespace || !s.selector || !Object.keys(s.selector).length) continue;
    if (!selects({ matchLabels: s.selector, matchExpressions: [] }, pod.labels)) continue;
    for (const p of s.ports) {
      // A named targetPort is the pod's container port of that name (k8s.io/api core/v1 ServicePort).
      if (typeof p.targetPort === 'string') out.push(...resolveNamedPort(p.targetPort, p.protocol, pod).map((port) => ({ proto: p.protocol, port })));
      else out.push({ proto: p.protocol, port: p.targetPort ?? p.port });
    }
  }
  return out;
}

/** The ports the policies' rules name, a named port resolved on the destination pod `dst`. */
export function policyPorts(ps: K8sNetworkPolicy[], dir: PolicyDir, dst: K8sPod | undefined): { proto: string; port: number }[] {
  const out: { proto: string; port: number }[] = [];
  for (const p of ps)
    for (const r of dir === 'ingress' ? p.ingress : p.egress)
      for (const q of r.ports) {
        if (typeof q.port === 'string') out.push(...resolveNamedPort(q.port, q.protocol, dst).map((port) => ({ proto: q.protocol, port })));
        if (typeof q.port === 'number') out.push({ proto: q.protocol, port: q.port });
        if (typeof q.port === 'number' && q.endPort !== undefined && q.endPort !== q.port) out.push({ proto: q.protocol, port: q.endPort });
      }
  return out;
}

/** An address inside each ipBlock and one inside each of its exceptions (the edges the policy draws):
 *  the block's first host, its host bits cleared (`10.1.2.255/24` is probed at 10.1.2.1, not 10.1.3.0). */
function blockPeers(ps: K8sNetworkPolicy[], dir: PolicyDir): string[] {
  const out: string[] = [];
  for (const p of ps)
    for (const r of dir === 'ingress' ? p.ingress : p.egress)
      for (const peer of r.peers)
        for (const c of [...(peer.ipBlock ? [peer.ipBlock.cidr, ...peer.ipBlock.except] : []), ...(peer.nets ?? []), ...(peer.notNets ?? [])]) { const a = firstHostOf(c); if (a) out.push(a); }
  return out;
}

const uniq = <T>(xs: T[], key: (x: T) => string) => [...new Map(xs.map((x) => [key(x), x])).values()];

export interface PolicyComparison {
  groups: Group[];
  walks: number;
  capped: boolean;
  /** Pairs whose intent needs something the snapshot lacks or hnsight does not model (the first reason). */
  unknown: number;
  unknownWhy?: string;
  /** The pods of this node with such pairs. */
  unknownPods: Set<string>;
  /** Pairs whose walk never reached the pod's ACL layers or that they did not decide. */
  undecided: number;
}

/**
 * How intent is evaluated: Kubernetes semantics alone, or Calico's (its own policies with the
 * Kubernetes ones, in order) on a Calico node whose snapshot has Calico policies.
 */
export type IntentMode = 'kubernetes' | 'calico';

export function comparePolicies(ctx: CheckContext, locals: LocalPolicyPod[], maxWalks = MAX_POLICY_WALKS, mode: IntentMode = 'kubernetes'): PolicyComparison {
  const snap = ctx.m.k8s!;
  const policies = mode === 'calico' ? snap.networkPolicies : snap.networkPolicies.filter((p) => p.flavour === 'kubernetes');
  const selectingFor = (pod: K8sPod, dir: PolicyDir) => (mode === 'calico' ? calicoApplicable(policies, pod, dir, snap.namespaces).policies : selectingPolicies(policies, pod, dir));
  const intentOf = (pod: K8sPod, peer: PolicyPeer, dir: PolicyDir, proto: string, port: number): IntentVerdict =>
    mode === 'calico' ? calicoIntent(policies, pod, peer, dir, proto, port, snap.namespaces) : policyIntent(policies, pod, peer, dir, proto, port, snap.namespaces);
  const peersAll: PolicyPeer[] = snap.pods.filter((p) => !p.hostNetwork && p.phase !== 'Succeeded' && p.phase !== 'Failed').flatMap((pod) => pod.ips.filter(v4).slice(0, 1).map((ip) => ({ ip, pod })));
  const groups = new Map<string, Group>();
  const res: PolicyComparison = { groups: [], walks: 0, capped: false, unknown: 0, unknownPods: new Set(), undecided: 0 };
  const name = (p: K8sPod) => `${p.namespace}/${p.name}`;
  outer: for (const l of locals)
    for (const dir of ['ingress', 'egress'] as PolicyDir[]) {
      const sel = selectingFor(l.pod, dir);
      const peers = uniq([...peersAll, ...blockPeers(sel, dir).map((ip) => ({ ip, pod: peersAll.find((x) => x.ip === ip)?.pod }))], (x) => x.ip).filter((x) => x.ip !== l.ip);
      // Each pod and direction gets an equal share of the walks, so a cap still looks at every pod.
      const share = Math.max(1, Math.floor(maxWalks / (locals.length * 2)));
      let mine = 0;
      pairs: for (const peer of peers) {
        const target = dir === 'ingress' ? l.pod : peer.pod;
        let ports = uniq([...policyPorts(sel, dir, target), ...(target ? servicePorts(snap.services, target) : [])], (x) => `${x.proto}/${x.port}`).filter((x) => x.proto === 'TCP' || x.proto === 'UDP');
        // A pod selected by a policy naming no port, with no Service: one example port (inferred).
        if (!ports.length && sel.length) ports = [{ proto: 'TCP', port: 80 }];
        for (const pp of ports) {
          if (res.walks >= maxWalks) { res.capped = true; break outer; }
          if (mine++ >= share) { res.capped = true; break pairs; }
          const intent = intentOf(l.pod, peer, dir, pp.proto, pp.port);
          if (intent.unknown) { res.unknown++; res.unknownWhy ??= intent.unknown; res.unknownPods.add(name(l.pod)); continue; }
          const flow: Flow = dir === 'ingress' ? { srcIp: peer.ip, dstIp: l.ip, proto: pp.proto === 'UDP' ? 'udp' : 'tcp', dstPort: pp.port } : { srcIp: l.ip, dstIp: peer.ip, proto: pp.proto === 'UDP' ? 'udp' : 'tcp', dstPort: pp.port };
          spend(50);
          res.walks++;
          const acl = aclDecision(walkFlow(ctx.m, flow), l.port);
          if (!acl) { res.undecided++; continue; }
          const kind: Kind | undefined = intent.allowed && acl.verdict === 'deny' ? 'dropped' : !intent.allowed && acl.verdict === 'allow' ? 'allowed' : undefined;
          if (!kind) continue;
          const rule = kind === 'dropped'
            ? intent.allowedBy[0] ? ruleLabel(intent.allowedBy[0], dir)
              : intent.passedBy ? `${ruleLabel(intent.passedBy, dir)} (Pass: on to the namespace's profile, which allows it)`
                : `no ${dir === 'ingress' ? 'Ingress' : 'Egress'} policy selects the pod (allowed by default)`
            : intent.deniedBy ? `${ruleLabel(intent.deniedBy, dir)} (Deny)`
              : `${intent.selecting.map(policyName).join(', ')} (no ${dir} rule allows it)`;
          const key = `${kind}|${dir}|${rule}`;
          let g = groups.get(key);
          const deciding = intent.allowedBy[0] ?? intent.passedBy ?? intent.deniedBy;
          if (!g) groups.set(key, (g = { kind, dir, rule, policies: deciding ? [deciding.policy] : intent.selecting, vfpRules: new Map(), pairs: [], pods: new Set(), trace: flow }));
          const h = acl.hop;
          const vr = `port ${h.port} ${h.direction ?? ''} layer ${h.layer} group ${h.group ?? '-'} rule ${h.rule ?? '(layer default)'} ${h.action}`.replace(/\s+/g, ' ');
          if (!g.vfpRules.has(vr) && h.evidence) g.vfpRules.set(vr, { file: h.evidence.file, line: h.evidence.line, text: vr });
          const peerName = peer.pod ? name(peer.pod) : peer.ip;
          g.pods.add(name(l.pod));
          g.pairs.push(`${dir === 'ingress' ? `${peerName} → ${name(l.pod)}` : `${name(l.pod)} → ${peerName}`} ${pp.proto} ${pp.port}`);
        }
      }
    }
  res.groups = [...groups.values()];
  return res;
}

/** Findings of a comparison: one per policy rule and kind, listing the pod pairs and the deciding VFP rules. */
export function comparisonFindings(ctx: CheckContext, c: PolicyComparison, renderingKnown: boolean): Finding[] {
  return c.groups.map((g) => {
    const pairs = `${g.pairs.slice(0, 8).join('; ')}${g.pairs.length > 8 ? `; and ${g.pairs.length - 8} more` : ''}`;
    const vfp = [...g.vfpRules.keys()];
    const podList = [...g.pods];
    const mine = `Pods of this node concerned: ${podList.slice(0, 8).join(', ')}${podList.length > 8 ? `, and ${podList.length - 8} more` : ''}. `;
    const ev: FindingEvidence[] = [...g.policies.slice(0, 2).map((p) => ({ file: p.src.file, line: p.src.line, text: `${p.flavour === 'calico-global' ? 'GlobalNetworkPolicy' : 'NetworkPolicy'} ${policyName(p)}` })), ...[...g.vfpRules.values()].slice(0, 4)];
    const sev = renderingKnown ? 'error' : 'warning';
    const hedge = renderingKnown ? '' : ` How ${ctx.platform.label} renders policies as ACLs is not verified by hnsight, so this is a warning.`;
    const f: Finding = g.kind === 'dropped'
      ? {
          id: 'network-policy-acl-drops-allowed', severity: sev, area: 'k8s',
          title: `${g.rule} allows ${g.dir} traffic that the pod's ACL drops (${plural(g.pairs.length, 'combination of pod pair and port', 'combinations of pod pair and port')})`,
          explanation: `${mine}Per the snapshot, ${g.rule} allows ${pairs}. The node's ACL layer drops it instead: ${vfp.slice(0, 3).join('; ')}.${hedge}`,
          fix: 'Compare the ACL rules the policy agent programmed on the pod\'s endpoint with the policy; restart or resync the policy agent (Calico: calico-felix on the node) so it reprograms them.',
          objects: g.policies.map(policyName),
          evidence: ev,
          trace: { srcIp: g.trace.srcIp, dstIp: g.trace.dstIp, dstPort: g.trace.dstPort, proto: g.trace.proto },
        }
      : {
          id: 'network-policy-acl-allows-denied', severity: sev, area: 'k8s',
          title: `${g.dir === 'ingress' ? 'Ingress' : 'Egress'} traffic denied by ${g.policies.map(policyName).join(', ')} is allowed by the pod's ACL (${plural(g.pairs.length, 'combination of pod pair and port', 'combinations of pod pair and port')})`,
          explanation: `${mine}Per the snapshot, ${g.rule}, so it denies ${pairs}. The node's ACL layer allows it: ${vfp.slice(0, 3).join('; ')}.${hedge}`,
          fix: 'The policy is not enforced for these pods: check that the policy agent runs on this node and has programmed the pod\'s endpoint (Calico: calico-felix logs), then compare again.',
          objects: g.policies.map(policyName),
          evidence: ev,
          trace: { srcIp: g.trace.srcIp, dstIp: g.trace.dstIp, dstPort: g.trace.dstPort, proto: g.trace.proto },
        };
    return ctx.hedge(f, 'vfp', 'endpoints');
  });
}
