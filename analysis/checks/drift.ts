// HNS says one thing, VFP another: RemoteSubnetRoute policies vs REMOTESUBNETROUTE encap rules, and
// each endpoint's OutBoundNAT ExceptionList vs its EXCEPTIONS_OUTBOUNDNAT / OUTBOUNDNAT rules.
import type { Finding } from '../findings/types.ts';
import type { Check } from './types.ts';
import { intToIp, ipRange, rangeText, ruleDstRanges, type Range } from './context.ts';
import { withPod } from '../k8s/index.ts';
import type { VfpPortRef } from '../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../parsers/hns/index.ts';
import type { VfpRule } from '../../parsers/vfp/index.ts';
import { plural } from '../../parsers/text/quantities.ts';
import { ruleAction } from '../walk/semantics.ts';
import { isMapEncapName, isOutboundNatExceptionName, isOutboundNatName, isRemoteSubnetRouteName, mentionsOutboundNat, remoteSubnetRouteFromName } from './hns-rule-names.ts';

const MAX_PORTS = 400;
const key = (r: Range) => `${r.lo}-${r.hi}`;

/**
 * A RemoteSubnetRoute as VFP programmed it: a rule HNS named for one, or an encap rule (what
 * semantics.ts says the type does) with explicit destinations that is not the map-lookup ENCAP_ rule.
 */
function rsrOf(rule: VfpRule): { range?: Range; pa?: string } | undefined {
  const isRsr = isRemoteSubnetRouteName(rule.name) || (ruleAction(rule) === 'encap' && rule.encapDestinations.length > 0 && !isMapEncapName(rule.name));
  if (!isRsr) return undefined;
  const named = remoteSubnetRouteFromName(rule.name);
  const range = ruleDstRanges(rule)[0] ?? (named ? ipRange(named.prefix) : undefined);
  const pa = rule.encapDestinations[0]?.ip ?? named?.pa;
  return { range, pa };
}

/** What a rule is to this check (worked out once per rule). */
interface RuleKind {
  rule: VfpRule;
  rsr?: { range?: Range; pa?: string };
  /** key(rsr.range), when it has one. */
  key?: string;
  exc: boolean;
  nat: boolean;
  anyNat: boolean;
}
type RsrRule = RuleKind & { rsr: { range: Range; pa?: string }; key: string };

/** A pod port and the rules of it the comparisons read, in file order. */
interface PodRules {
  e: HnsEndpoint;
  port: VfpPortRef;
  /** Its RemoteSubnetRoute rules with a destination. */
  rsr: RsrRule[];
  /** Its OutBoundNAT exception rules. */
  exc: VfpRule[];
  /** It has a rule that NATs. */
  nat: boolean;
  /** It has a rule named for OutBoundNAT. */
  anyNat: boolean;
}

function kindOf(rule: VfpRule): RuleKind {
  const rsr = rsrOf(rule);
  // `nat`: any rule that NATs (nat, dynnat — AKS's SNAT_TCP_OUTBOUNDNAT_… is one —, mapnat, …) as
  // semantics.ts reads it, or one HNS named for OutBoundNAT.
  return { rule, rsr, key: rsr?.range ? key(rsr.range) : undefined, exc: isOutboundNatExceptionName(rule.name), nat: isOutboundNatName(rule.name) || ruleAction(rule) === 'nat', anyNat: mentionsOutboundNat(rule.name) };
}

export const driftCheck: Check = {
  id: 'drift',
  ids: ['drift-remote-subnet-route', 'drift-outboundnat', 'drift-undecided'],
  title: 'HNS vs VFP',
  platforms: 'any',
  assumes: "HNS pushes each endpoint's and network's policies to the VFP ports unchanged, whatever plugin asked for them",
  // A rule that a cut vfpOutput.txt never reached is not missing from the node.
  reads: ['vfp'],
  run(ctx) {
    const out: Finding[] = [];
    const { m } = ctx;
    if (!m.vfp) return out;
    const pods = ctx.localPods.map((e) => ({ e, port: ctx.portOf(e) })).filter((x): x is { e: typeof x.e; port: VfpPortRef } => !!x.port?.policy).slice(0, MAX_PORTS);
    // What each (shared) rule is, worked out once per rule and kept by its id (ctx.ruleIds: pod ports
    // share their rules, read once): a million port rules are then array reads, and each port keeps
    // only the few rules these comparisons look at. A port with no rule that parsed is left out.
    const kinds: (RuleKind | null | undefined)[] = [];
    const policies: PodRules[] = [];
    for (const { e, port } of pods) {
      const ids = ctx.ruleIds(port);
      const p: PodRules = { e, port, rsr: [], exc: [], nat: false, anyNat: false };
      let parsed = false;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] ?? 0;
        let k = kinds[id];
        if (k === undefined) {
          const rule = ctx.ruleById(id);
          kinds[id] = k = rule ? kindOf(rule) : null;
        }
        if (!k) continue;
        parsed = true;
        if (k.rsr?.range) p.rsr.push(k as RsrRule);
        if (k.exc) p.exc.push(k.rule);
        if (k.nat) p.nat = true;
        if (k.anyNat) p.anyNat = true;
      }
      if (parsed) policies.push(p);
    }

    // --- RemoteSubnetRoute ------------------------------------------------------------------------
    for (const net of ctx.podNetworks.filter((n) => n.type === 'overlay')) {
      const onNet = policies.filter((p) => ctx.networkOf(p.e) === net);
      if (!onNet.length) continue;
      const perPort = onNet;
      // Ports with no encap rules at all while others have them are still expected to carry them.
      for (const rs of net.remoteSubnetRoutes) {
        const want = ipRange(rs.destinationPrefix);
        if (!want) continue;
        const wantKey = key(want);
        const missing: typeof perPort = [];
        const wrongPa: { p: (typeof perPort)[number]; rule: VfpRule; pa?: string }[] = [];
        for (const p of perPort) {
          const hit = p.rsr.find((x) => x.key === wantKey);
          if (!hit) missing.push(p);
          else if (hit.rsr.pa && hit.rsr.pa !== rs.providerAddress) wrongPa.push({ p, rule: hit.rule, pa: hit.rsr.pa });
        }
        const hnsEv = ctx.ev(net.src, rs.destinationPrefix, 2000);
        const src0 = ctx.traceSource(missing, (x) => x.e)?.e ?? ctx.traceSource(wrongPa, (x) => x.p.e)?.p.e;
        const probe = intToIp(want.lo + 4);
        const [miss0] = missing;
        if (miss0) {
          out.push({
            id: 'drift-remote-subnet-route',
            severity: 'error',
            area: 'drift',
            title: `REMOTESUBNETROUTE for ${rs.destinationPrefix} missing on ${missing.length} of ${perPort.length} pod ports`,
            explanation: `HNS network ${net.name} has a RemoteSubnetRoute for ${rs.destinationPrefix} via provider address ${rs.providerAddress}, but VFP has no REMOTESUBNETROUTE encap rule for it on ${missing.map((p) => p.port.name).slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}. Traffic from those pods to pods in ${rs.destinationPrefix} is not VXLAN-encapsulated and dies in the underlay.`,
            fix: `HNS did not push the policy to these ports: restart flanneld (it re-adds the RemoteSubnetRoute) or recreate the affected pods; if it persists, \`Restart-Service hns\` (disrupts the node). Verify with \`vfpctrl /port ${miss0.port.name} /layer VNET_ENCAP_LAYER /list-rule\` (look for REMOTESUBNETROUTE_…_${rs.destinationPrefix.replace('/', '_')}).`,
            objects: [rs.destinationPrefix, rs.providerAddress, ...missing.slice(0, 20).map((p) => p.port.name)],
            evidence: [hnsEv, ...missing.slice(0, 2).map((p) => ctx.portEv(p.port, `no REMOTESUBNETROUTE rule for ${rs.destinationPrefix} in this port's section`))],
            trace: src0?.ip ? { srcIp: src0.ip, dstIp: probe, dstPort: 80, proto: 'tcp' } : undefined,
          });
        }
        const [wrong0] = wrongPa;
        if (wrong0) {
          out.push({
            id: 'drift-remote-subnet-route',
            severity: 'error',
            area: 'drift',
            title: `REMOTESUBNETROUTE for ${rs.destinationPrefix} encapsulates to ${wrong0.pa}, HNS says ${rs.providerAddress}`,
            explanation: `VFP sends ${rs.destinationPrefix} to provider address ${wrong0.pa} on ${plural(wrongPa.length, 'port')}, while HNS network ${net.name} says ${rs.providerAddress}. The packets go to the wrong node (an old node IP after a node was re-created, or a subnet lease that moved to another node).`,
            fix: 'Restart flanneld and HNS policies for the subnet; check the remote node\'s flannel annotations (public-ip, VtepMAC).',
            objects: [rs.destinationPrefix, rs.providerAddress, wrong0.pa ?? '', ...wrongPa.slice(0, 10).map((w) => w.p.port.name)],
            evidence: [hnsEv, ctx.ev(wrong0.rule.src, wrong0.pa ?? /Encap/i, 30)],
            trace: src0?.ip ? { srcIp: src0.ip, dstIp: probe, dstPort: 80, proto: 'tcp' } : undefined,
          });
        }
      }
      // VFP encap rules for subnets HNS does not have.
      const hnsKeys = new Set(net.remoteSubnetRoutes.map((r) => ipRange(r.destinationPrefix)).filter((r): r is Range => !!r).map(key));
      const extra = new Map<string, { rule: VfpRule; ports: string[] }>();
      for (const p of perPort) for (const x of p.rsr) {
        const k = x.key;
        if (hnsKeys.has(k)) continue;
        const cur = extra.get(k) ?? { rule: x.rule, ports: [] };
        cur.ports.push(p.port.name);
        extra.set(k, cur);
      }
      for (const { rule, ports } of extra.values()) {
        const r = rsrOf(rule)!;
        out.push({
          id: 'drift-remote-subnet-route',
          severity: 'warning',
          area: 'drift',
          title: `VFP encapsulates ${rangeText(r.range!)} but HNS has no RemoteSubnetRoute for it`,
          explanation: `Rule ${rule.name} on ${plural(ports.length, 'port')} sends ${rangeText(r.range!)} to ${r.pa ?? '?'}, but network ${net.name} has no such RemoteSubnetRoute: a leftover of a removed node. Harmless until that subnet is given to another node, then traffic goes to the old address.`,
          fix: 'Restart flanneld (it reconciles the policies with the current subnet leases) or recreate the pods.',
          objects: [rangeText(r.range!), ...(r.pa ? [r.pa] : []), ...ports.slice(0, 10)],
          evidence: [ctx.ev(rule.src), ctx.ev(net.src, /RemoteSubnetRoute/i, 2000)],
        });
      }
    }

    // --- OutBoundNAT -------------------------------------------------------------------------------
    const missingExc = new Map<string, { value: string; eps: typeof policies }>();
    const extraExc = new Map<string, { value: string; rule: VfpRule; eps: typeof policies }>();
    const noNat: typeof policies = [];
    for (const p of policies) {
      const nat = p.e.outboundNat;
      if (!nat.length) continue;
      const excRules = p.exc.map((rule) => ({ rule }));
      // A port whose dump has no SLB NAT rules at all (a filtered dump) says nothing either way.
      if (!excRules.length && !p.nat) {
        noNat.push(p);
        continue;
      }
      const vfpRanges = new Map<string, { rule: VfpRule; range: Range }>();
      for (const x of excRules) for (const r of ruleDstRanges(x.rule)) vfpRanges.set(key(r), { rule: x.rule, range: r });
      const hns = new Map<string, string>();
      for (const n of nat) for (const v of n.exceptions) {
        const r = ipRange(v);
        if (r) hns.set(key(r), v);
      }
      for (const [k, v] of hns) if (!vfpRanges.has(k)) missingExc.set(v, { value: v, eps: [...(missingExc.get(v)?.eps ?? []), p] });
      for (const [k, { rule, range }] of vfpRanges) {
        if (hns.has(k)) continue;
        const v = rangeText(range);
        extraExc.set(v, { value: v, rule, eps: [...(extraExc.get(v)?.eps ?? []), p] });
      }
    }
    for (const { value, eps } of missingExc.values()) {
      const r = ipRange(value)!;
      const [ep0] = eps;
      if (!ep0) continue;
      out.push({
        id: 'drift-outboundnat',
        severity: 'error',
        area: 'drift',
        title: `OutBoundNAT exception ${value} is in HNS but not in VFP on ${plural(eps.length, 'port')}`,
        explanation: `The endpoints' OutBoundNAT policy exempts ${value} from SNAT, but the ports' SLB_NAT_LAYER has no EXCEPTIONS_OUTBOUNDNAT rule for it: traffic from ${eps.map((p) => withPod(m, p.e.ip)).slice(0, 3).join(', ')} to ${value} is SNATed to the node IP anyway.`,
        fix: `Recreate the pods so HNS reprograms the ports; check with \`vfpctrl /port ${ep0.port.name} /layer SLB_NAT_LAYER /list-rule\`.`,
        objects: [value, ...eps.slice(0, 20).map((p) => p.port.name)],
        evidence: [ctx.ev(ep0.e.src, `"${value}"`), ctx.portEv(ep0.port, `no EXCEPTIONS_OUTBOUNDNAT rule for ${value} in this port's section`)],
        trace: ctx.traceSource(eps, (x) => x.e)?.e.ip ? { srcIp: ctx.traceSource(eps, (x) => x.e)!.e.ip!, dstIp: intToIp(r.hi > r.lo + 4 ? r.lo + 4 : r.lo), dstPort: 80, proto: 'tcp' } : undefined,
      });
    }
    for (const { value, rule, eps } of extraExc.values()) {
      const [ep0] = eps;
      if (!ep0) continue;
      out.push({
        id: 'drift-outboundnat',
        severity: 'warning',
        area: 'drift',
        title: `VFP exempts ${value} from SNAT but the endpoints' ExceptionList does not`,
        explanation: `Rule ${rule.name} on ${plural(eps.length, 'port')} exempts ${value} from OutboundNAT, but the HNS endpoints' ExceptionList has no such entry: the port was programmed from an older policy.`,
        fix: 'Recreate the pods so their ports are programmed from the current endpoint policy.',
        objects: [value, ...eps.slice(0, 20).map((p) => p.port.name)],
        evidence: [ctx.ev(rule.src), ctx.ev(ep0.e.src, /ExceptionList/i)],
      });
    }
    const [noNat0] = noNat;
    if (noNat0 && policies.some((p) => p.anyNat)) {
      out.push({
        id: 'drift-outboundnat',
        severity: 'error',
        area: 'drift',
        title: `${plural(noNat.length, 'pod port')} ${noNat.length === 1 ? 'has' : 'have'} an OutBoundNAT policy in HNS but no NAT rules in VFP`,
        explanation: `The HNS endpoints of ${noNat.map((p) => withPod(m, p.e.ip)).slice(0, 5).join(', ')} have an OutBoundNAT policy, but their VFP ports have no OUTBOUNDNAT / EXCEPTIONS_OUTBOUNDNAT rules while other pods' ports do: their traffic to the outside is not SNATed and gets no reply.`,
        fix: `Recreate those pods; check with \`vfpctrl /port ${noNat0.port.name} /layer SLB_NAT_LAYER /list-rule\`.`,
        objects: noNat.slice(0, 20).map((p) => p.port.name),
        evidence: noNat.slice(0, 3).map((p) => ctx.portEv(p.port, 'no OUTBOUNDNAT rules in this port\'s section')),
        trace: noNat0.e.ip ? { srcIp: noNat0.e.ip, dstIp: '93.184.216.34', dstPort: 443, proto: 'tcp' } : undefined,
      });
    }
    return out;
  },
};
