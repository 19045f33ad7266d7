// Load balancers as VFP programmed them on each pod port, against what HNS holds (drift): a VIP:port
// with no LB rule on a port, an LB rule whose DIPs differ from the load balancer's endpoints, an LB
// rule HNS knows nothing about.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { intToIp } from './context.ts';
import { spend } from '../budget.ts';
import { withService, protoName } from '../k8s/index.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import type { VfpRule } from '../../parsers/vfp/index.ts';
import type { HnsLoadBalancer } from '../../parsers/hns/index.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { ruleAction } from '../walk/semantics.ts';

const NAME_KEY = /_(\d+\.\d+\.\d+\.\d+)_(\d+)_(\d+)_(\d+)$/;
/** Ports whose rules are checked at most (their rules are read through the shared rule reader, port-rules.ts). */
const MAX_PORTS = 400;

/** A load balancer key `VIP|port|protocol number` (built here, always three parts) taken apart. */
const splitKey = (k: string) => {
  const [vip = '', port = '', proto = ''] = k.split('|');
  return { vip, port, proto };
};

/** Most VIP × port × protocol combinations one rule is spelled out into; a real LB rule names one of each. */
export const MAX_RULE_KEYS = 64;

/**
 * VIP|port|proto keys a load-balancing rule answers for. A rule naming more combinations than
 * MAX_RULE_KEYS (a hostile dump lists thousands of addresses and ports: their product does not fit in
 * memory) is not spelled out: it keeps only the keys of `expected` it answers for, found by membership,
 * linear in the rule and in `expected`, and says it was capped.
 */
export function lbRuleKeys(r: VfpRule, expected: ReadonlyMap<string, unknown> = new Map()): { keys: string[]; capped: boolean } {
  // A load-balancing rule is what semantics.ts says load-balances (lbnat and its aliases, or a type it
  // does not know whose data lists DIP ranges), never a pattern on the printed type.
  if (ruleAction(r) !== 'lb') return { keys: [], capped: false };
  // Single addresses and ports, in the conditions' order (one pass: this runs on every distinct rule).
  const dst: { lo: number }[] = [];
  const ports: { lo: number }[] = [];
  const protos: number[] = [];
  for (const c of r.conditions) {
    if (c.kind === 'dstIp') {
      for (const x of c.ipRanges ?? []) if (x.lo === x.hi) dst.push(x);
    } else if (c.kind === 'dstPort') {
      for (const x of c.ports ?? []) if (x.lo === x.hi) ports.push(x);
    } else if (c.kind === 'protocols') {
      for (const x of c.protocols ?? []) protos.push(x);
    }
  }
  spend(dst.length + ports.length + protos.length);
  if (dst.length && ports.length && protos.length) {
    const keys: string[] = [];
    if (dst.length * ports.length * protos.length > MAX_RULE_KEYS) {
      const d = new Set(dst.map((x) => intToIp(x.lo)));
      const p = new Set(ports.map((x) => String(x.lo)));
      const pr = new Set(protos.map(String));
      spend(expected.size);
      for (const k of expected.keys()) {
        const { vip, port, proto } = splitKey(k);
        if (d.has(vip) && p.has(port) && pr.has(proto)) keys.push(k);
      }
      return { keys, capped: true };
    }
    for (const d of dst) for (const p of ports) for (const pr of protos) keys.push(`${intToIp(d.lo)}|${p.lo}|${pr}`);
    return { keys, capped: false };
  }
  const m = NAME_KEY.exec(r.name);
  return { keys: m ? [`${m[1]}|${m[2]}|${m[4]}`] : [], capped: false };
}

/** Whether `a` holds the first `n` ids of `b`, and no more. */
function sameIds(a: Uint32Array, b: Uint32Array, n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

export const lbVfpCheck: Check = {
  id: 'lb-vfp',
  ids: ['lb-rule-missing', 'drift-lb-dips', 'drift-lb-rule-without-hns', 'lb-vfp-undecided'],
  title: 'Load balancers in VFP',
  platforms: 'any',
  assumes: 'HNS programs each load balancer as LB rules on the pod ports',
  // A rule that a cut vfpOutput.txt never reached is not missing from the node.
  reads: ['vfp'],
  run(ctx) {
    const out: Finding[] = [];
    const { m, tc } = ctx;
    if (!m.loadBalancers || !m.vfp || !m.endpoints) return out;
    const expected = new Map<string, HnsLoadBalancer>();
    for (const lb of m.loadBalancers) {
      if (lb.ipv6) continue;
      for (const vip of lb.vips) {
        if (tc.hostIps.has(vip)) continue; // NodePort / host VIPs live on the host and uplink ports
        for (const p of lb.ports) if (p.protocol === 6 || p.protocol === 17) expected.set(`${vip}|${p.externalPort}|${p.protocol}`, lb);
      }
    }
    const epIp = new Map(m.endpoints.map((e) => [e.id.toLowerCase(), e.ip]));
    const allIps = new Set(m.endpoints.map((e) => e.ip).filter(Boolean));
    const pods = ctx.localPods.map((e) => ({ e, port: ctx.portOf(e) })).filter((x): x is { e: typeof x.e; port: VfpPortRef } => !!x.port?.policy);
    if (pods.length > MAX_PORTS) {
      out.push({ id: 'lb-vfp-undecided', severity: 'info', area: 'vfp', undecided: true, title: `Load-balancing rules checked on ${MAX_PORTS} of ${pods.length} pod ports`, explanation: `The bundle has ${pods.length} pod ports; to keep inspect fast only the first ${MAX_PORTS} were compared with the HNS load balancers.`, fix: 'Inspect a single port with `vfpctrl /port <port> /layer LB_DSR /list-rule` when a pod past these has trouble.', objects: [], evidence: [] });
    }
    // Pod ports share their rules (ctx.rules reads each name once), so each rule's keys are worked out
    // once, as small integers: a million port rules are then array work, not string hashing.
    type PodPort = { e: (typeof pods)[number]['e']; port: VfpPortRef; lb: boolean; missing: number[] };
    /** Ports with the same load-balancing rule ids: whether they have any key, and the expected keys they lack (shared, read-only). */
    type LbGroup = { ids: Uint32Array; capped: VfpRule[]; lb: boolean; missing: number[] };
    const keyIds = new Map<string, number>();
    const keyNames: string[] = [];
    const intern = (k: string) => {
      let id = keyIds.get(k);
      if (id === undefined) {
        keyIds.set(k, (id = keyNames.length));
        keyNames.push(k);
      }
      return id;
    };
    const expectedIds = [...expected.keys()].map(intern);
    // A rule too wide to spell out (lbRuleKeys) keeps the expected keys it answers for; named once below.
    // Indexed by the rule's id (ctx.ruleIds): a pod port's rules are a few thousand small integers, the
    // same ones on every pod port, so a million port rules are array reads (no list of rule objects
    // built per port, no Map lookup per rule). null: the rule's text did not parse, or it names no key
    // and is not capped (not a load-balancing rule here).
    const keysOfRule: ({ ids: number[]; capped: boolean; rule: VfpRule } | null | undefined)[] = [];
    const capped = new Map<string, VfpRule>();
    /**
     * Per key: each distinct rule answering for it, with the first port (in order) that has it. The rule
     * reader gives a port whose copy of a load-balancing rule differs from the others' (stale DIPs) a
     * rule of its own (port-rules.ts), so that port's DIPs are compared too.
     */
    const firstSeen = new Map<number, { p: PodPort; rule: VfpRule }[]>();
    const seenOn: number[] = [];
    const portKeys: PodPort[] = [];
    // Ports with the same load-balancing rules (the same ids in the same order: HNS programs every
    // load balancer onto every pod port) have the same keys, so what a port has and lacks is worked
    // out once per such group, found by a hash of its ids and checked id by id.
    const groups = new Map<string, LbGroup[]>();
    let groupCount = 0;
    /** This port's load-balancing rule ids (a buffer reused from port to port). */
    let lbIds = new Uint32Array(0);
    for (const { e, port } of pods.slice(0, MAX_PORTS)) {
      const ruleIds = ctx.ruleIds(port);
      if (lbIds.length < ruleIds.length) lbIds = new Uint32Array(ruleIds.length);
      let n = 0;
      let h = 0x811c9dc5;
      for (let i = 0; i < ruleIds.length; i++) {
        const ruleId = ruleIds[i] ?? 0;
        let r = keysOfRule[ruleId];
        if (r === undefined) {
          const rule = ctx.ruleById(ruleId);
          // A rule whose text did not parse is not one of the port's rules (ctx.rules leaves it out too).
          const k = rule && lbRuleKeys(rule, expected);
          keysOfRule[ruleId] = r = rule && k && (k.keys.length || k.capped) ? { ids: k.keys.map(intern), capped: k.capped, rule } : null;
        }
        if (!r) continue;
        lbIds[n++] = ruleId;
        h = Math.imul(h ^ ruleId, 16777619);
      }
      const sig = `${h >>> 0}:${n}`;
      const bucket = groups.get(sig);
      let g = bucket?.find((x) => sameIds(x.ids, lbIds, n));
      const p: PodPort = { e, port, lb: false, missing: [] };
      if (!g) {
        g = { ids: lbIds.slice(0, n), capped: [], lb: false, missing: [] };
        const stamp = ++groupCount;
        for (const ruleId of g.ids) {
          const { ids, rule, capped: wide } = keysOfRule[ruleId]!;
          if (wide) g.capped.push(rule);
          spend(ids.length);
          for (const id of ids) {
            if (seenOn[id] === stamp) continue;
            seenOn[id] = stamp;
            g.lb = true;
            const seen = firstSeen.get(id);
            if (!seen) firstSeen.set(id, [{ p, rule }]);
            else if (!seen.some((x) => x.rule === rule)) seen.push({ p, rule });
          }
        }
        spend(expectedIds.length);
        for (const id of expectedIds) if (seenOn[id] !== stamp) g.missing.push(id);
        if (bucket) bucket.push(g);
        else groups.set(sig, [g]);
      }
      for (const rule of g.capped) {
        if (capped.size >= 1000) break;
        capped.set(`${port.name}|${rule.name}`, rule);
      }
      p.lb = g.lb;
      p.missing = g.missing;
      portKeys.push(p);
    }
    const [first] = [...capped.values()];
    if (first) {
      out.push({ id: 'lb-vfp-undecided', severity: 'info', area: 'vfp', undecided: true, title: `${capped.size >= 1000 ? 'More than 1,000 load-balancing rules name' : `${plural(capped.size, 'load-balancing rule')} ${capped.size === 1 ? 'names' : 'name'}`} more than ${MAX_RULE_KEYS} VIP × port × protocol combinations`, explanation: `Rules such as ${first.name} list more destination addresses, ports and protocols than a load-balancing rule kube-proxy programs (one of each). They were compared only with the load balancers HNS has: a combination only VFP has is not reported for them.`, fix: 'Look at these rules with `vfpctrl /port <port> /layer LB_DSR /list-rule`; a rule like this is not one kube-proxy writes.', objects: [...capped.values()].slice(0, 20).map((r) => r.name), evidence: [ctx.ev(first.src)] });
    }
    // Ports that carry load-balancing rules at all (the bridge endpoint and host ports do not).
    if (!portKeys.some((p) => p.lb)) return out;
    const missing = new Map<string, typeof portKeys>();
    for (const p of portKeys) {
      for (const id of p.missing) {
        const k = keyNames[id];
        if (k === undefined) continue;
        const list = missing.get(k);
        if (list) list.push(p);
        else missing.set(k, [p]);
      }
    }
    for (const [k, ports] of missing) {
      const lb = expected.get(k)!;
      const [p0] = ports;
      if (!p0) continue;
      const { vip, port, proto } = splitKey(k);
      const what = withService(m, vip, Number(port), Number(proto));
      const all = ports.length === portKeys.length;
      out.push(ctx.hedge({
        id: 'lb-rule-missing',
        severity: 'error',
        area: 'drift',
        title: `No load-balancing rule for ${what} on ${all ? 'any pod port' : `${ports.length} of ${portKeys.length} pod ports`}`,
        explanation: `HNS has load balancer ${lb.id} for ${what}, but VFP has no LB rule for it on ${ports.map((p) => p.port.name).slice(0, 5).join(', ')}${ports.length > 5 ? ` and ${ports.length - 5} more` : ''}. A packet from ${all ? 'any pod' : 'those pods'} to the service VIP is never DNATed to a backend: it leaves with the VIP as destination and is dropped.`,
        fix: `Restart kube-proxy so it re-applies the load balancer (HNS reprograms the port rules), or recreate the affected pods. Verify with \`vfpctrl /port ${p0.port.name} /layer LB_DSR /list-rule\` (or the LB layer on non-DSR nodes) and \`hnsdiag list loadbalancers\`.`,
        objects: [`${vip}:${port}/${protoName(Number(proto))}`, lb.id, ...ports.slice(0, 20).map((p) => p.port.name)],
        evidence: [ctx.ev(lb.src, vip, 400), ...ports.slice(0, 3).map((p) => ctx.portEv(p.port, `no LB rule for ${vip}:${port}/${protoName(Number(proto))} in this port's section`))],
        trace: p0.e.ip ? { srcIp: p0.e.ip, dstIp: vip, dstPort: Number(port), proto: proto === '17' ? 'udp' : 'tcp' } : undefined,
      }, 'loadBalancers', 'endpoints'));
    }
    // DIPs: per VIP:port, compare each distinct copy of its rule with HNS's backends. Pod ports share
    // one copy (port-rules.ts); a port whose copy HNS left with other DIPs has its own, compared too.
    const orphans: Finding[] = [];
    for (const [keyId, rules] of firstSeen) {
      const k = keyNames[keyId];
      const first = rules[0];
      if (k === undefined || !first) continue;
      const { vip, port, proto } = splitKey(k);
      // Named (withService) only for a finding: most keys agree.
      const what = () => withService(m, vip, Number(port), Number(proto));
      const lb = expected.get(k);
      if (!lb) {
        // A NodePort load balancer often has no VIP at all in HNS (it serves every node address).
        if (tc.hostIps.has(vip) || (m.loadBalancers ?? []).some((l) => (l.vips.length === 0 || l.vips.includes(vip)) && l.ports.some((x) => x.externalPort === Number(port)))) continue;
        orphans.push(ctx.hedge({
          id: 'drift-lb-rule-without-hns',
          severity: 'warning',
          area: 'drift',
          title: `VFP load-balances ${what()} but HNS has no load balancer for it`,
          explanation: `Port ${first.p.port.name} has LB rule ${first.rule.name}, but no HNS load balancer in ${m.meta.sources.loadBalancers?.[0] ?? 'policy.txt'} has this VIP and port. The rule is left over from a deleted service (or the policy file is incomplete): traffic to the VIP is still sent to old backends.`,
          fix: `Restart kube-proxy; if the rule stays, \`vfpctrl /port ${first.p.port.name} /layer LB_DSR /list-rule\` and remove the stale HNS policy (\`Get-HnsPolicyList | Remove-HnsPolicyList\`, then restart kube-proxy).`,
          objects: [`${vip}:${port}/${protoName(Number(proto))}`, first.p.port.name, first.rule.name],
          evidence: [ctx.ev(first.rule.src)],
        }, 'loadBalancers', 'endpoints'));
        continue;
      }
      /** The distinct DIP lists of this VIP:port's copies, each with the first port carrying it: copies listing the same DIPs say nothing new. */
      const copies = new Map<string, (typeof rules)[number]>();
      for (const x of rules) {
        if (!x.rule.dipRanges.length) continue;
        const dips = x.rule.dipRanges.map((d) => d.ip).sort().join(' ');
        if (!copies.has(dips)) copies.set(dips, x);
      }
      // More than one list: the pod ports disagree (HNS updated some and not others), whichever port
      // holds the stale copy — the first port's included.
      const partial = copies.size > 1;
      for (const [dips, { p, rule }] of copies) {
        const other = partial ? [...copies].find(([d]) => d !== dips)?.[1] : undefined;
        const hnsIps = new Set(lb.endpointIds.map((id) => epIp.get(id.toLowerCase())).filter((x): x is string => !!x));
        const dangling = lb.endpointIds.filter((id) => !epIp.has(id.toLowerCase())).length;
        const vfpIps = new Set(rule.dipRanges.map((d) => d.ip));
        const extraVfp = [...vfpIps].filter((ip) => !hnsIps.has(ip));
        const missingVfp = [...hnsIps].filter((ip) => !vfpIps.has(ip));
        // A DIP with no endpoint behind it is the stale-DIP case, already reported from HNS.
        const stale = extraVfp.filter((ip) => !allIps.has(ip));
        const shown = dangling ? extraVfp.filter((ip) => !stale.includes(ip) || stale.length > dangling) : extraVfp;
        if (!shown.length && !missingVfp.length) continue;
        const hard = shown.some((ip) => !allIps.has(ip));
        out.push(ctx.hedge({
          id: 'drift-lb-dips',
          severity: hard ? 'error' : 'warning',
          area: 'drift',
          title: `Backends of ${what()} differ between HNS and VFP`,
          explanation: `HNS load balancer ${lb.id} has backends ${[...hnsIps].join(', ') || '(none resolvable)'}; VFP rule ${rule.name} on port ${p.port.name} sends to ${[...vfpIps].join(', ')}.${shown.length ? ` VFP-only: ${shown.join(', ')}${hard ? ' (no endpoint has this IP: connections to it fail)' : ''}.` : ''}${missingVfp.length ? ` Missing in VFP: ${missingVfp.join(', ')} (${partial ? 'the pod of this port sends them no traffic' : 'these pods get no traffic from this node'}).` : ''}${other ? ` Port ${other.p.port.name} sends to ${other.rule.dipRanges.map((d) => d.ip).join(', ')}: the pod ports do not all carry the same copy of this rule (HNS updated some and not others).` : ''}`,
          fix: `Restart kube-proxy so HNS reprograms the rule; check with \`vfpctrl /port ${p.port.name} /list-rule\` and \`Get-HnsLoadBalancer\` / \`Get-HnsPolicyList\`.`,
          objects: [`${vip}:${port}/${protoName(Number(proto))}`, lb.id, p.port.name, ...shown, ...missingVfp],
          evidence: [ctx.ev(lb.src, vip, 400), ctx.ev(rule.src, shown[0] ?? /DIP Range/i, 40)],
          trace: p.e.ip ? { srcIp: p.e.ip, dstIp: vip, dstPort: Number(port), proto: proto === '17' ? 'udp' : 'tcp' } : undefined,
        }, 'loadBalancers', 'endpoints'));
      }
    }
    const [f0] = orphans;
    if (f0 && orphans.length > 3) {
      // Many at once means the policy file is stale or incomplete rather than a few leftovers: say it once.
      out.push({ ...f0, title: `VFP load-balances ${orphans.length} VIP:port pairs that HNS has no load balancer for`, explanation: `${orphans.length} LB rules on the pod ports (${orphans.slice(0, 5).flatMap((o) => o.objects[0] ?? []).join(', ')}, …) have no HNS load balancer with that VIP and port. ${f0.explanation.split('. ').slice(1).join('. ')}`, objects: orphans.flatMap((o) => o.objects[0] ?? []), evidence: orphans.slice(0, 3).flatMap((o) => o.evidence) });
    } else out.push(...orphans);
    return out;
  },
};
