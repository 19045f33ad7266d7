// What a matched VFP rule does to the packet. The effect is read from the rule's own data (what it
// says it modifies, the addresses it names, its DIP ranges, encap destinations, NAT pool, Modify
// values: parsers/vfp/rule-effect.ts); the type is the fallback (semantics.ts). Where neither the
// data nor the bundle's other listings (NAT ranges, mappings) name a value the walk needs, the result
// is marked inferred with where the value came from, or unmodelled when nothing says it.
import type { SourceRef } from '../../parsers/types.ts';
import { mappingsOf, natRangesOf, ruleEffect, type VfpPortPolicy, type VfpRule, type VfpRuleEffect } from '../../parsers/vfp/index.ts';
import type { Flow, HopEffect, Packet, Rewrite } from './types.ts';
import { ruleSemantics, type RuleAction } from './semantics.ts';
import { canonIp, familyOf } from './ip.ts';
import { hostPort } from '../../parsers/net/address.ts';

export type ActionKind = RuleAction;

export interface ActionResult {
  kind: ActionKind;
  /** Verb shown in the hop. */
  action: string;
  packet: Packet;
  rewrite?: Rewrite;
  note?: string;
  inferred?: boolean;
  alternatives?: string[];
  /** The effect could not be modelled: why (the verdict then depends on it). */
  unmodelled?: string;
  /** ICMP met an address-rewriting rule: VFP does not transpose ICMP. */
  icmpNotTransposed?: boolean;
  /** The rule keeps flow state: its reverse direction is translated by the flow. */
  keepsState: boolean;
}

/** Facts from HNS and the rest of the bundle the actions may fall back on (each use is marked inferred). */
export interface HnsFacts {
  remoteSubnetFor(ip: string): { prefix: string; pa: string; vni?: number; mac?: string; src?: SourceRef } | undefined;
  remoteEndpoint(ip: string): { pa?: string; mac?: string; src?: SourceRef } | undefined;
  /** OutBoundNAT `VIP`/`VirtualIP` of the endpoint with this address, when HNS names one. */
  outboundNatVip(ip: string): string | undefined;
}

export interface ActionContext {
  flow: Flow;
  /** The node's own address, the last resort for a source NAT whose address nothing names. */
  nodeIp?: string;
  /** The policy of the port being walked: its `/list-nat-range` and `/list-mapping` output. */
  policy?: VfpPortPolicy;
  /** The address of the endpoint that owns the port (the target of a backend's Dest NAT). */
  portIp?: string;
  hns?: HnsFacts;
}

/** The typed effect of an applied rule, for the hop (decisions branch on it, not on `action`). */
export function effectOf(res: ActionResult, before: Packet): HopEffect {
  if (res.icmpNotTransposed) return { kind: 'icmp-untransposed', would: res.kind === 'lb' ? 'lb' : 'nat' };
  const rw = res.rewrite;
  switch (res.kind) {
    case 'lb': {
      const dsr = !rw?.dstIp && !!res.packet.l2Dst && res.packet.l2Dst !== before.l2Dst;
      return { kind: 'lb', by: 'vfp', mode: rw?.dstIp ? 'dnat' : dsr ? 'dsr' : 'unknown', backend: rw?.dstIp ?? (dsr ? res.packet.l2Dst : undefined) };
    }
    case 'nat': {
      const src = rw?.srcIp !== undefined || rw?.srcPort !== undefined;
      const dst = rw?.dstIp !== undefined || rw?.dstPort !== undefined;
      return { kind: 'nat', side: src && dst ? 'both' : src ? 'source' : dst ? 'destination' : 'none' };
    }
    case 'encap':
      return { kind: 'encap', dstIp: res.packet.encap?.dstIp };
    case 'allow':
    case 'block':
    case 'pass':
    case 'decap':
    case 'rewrite':
    case 'route':
    case 'unknown':
      return { kind: res.kind };
  }
}

/** A stable per-flow hash, standing in for VFP's own (unknown) backend choice. */
function flowHash(p: Packet): number {
  const s = `${p.srcIp}|${p.srcPort ?? ''}|${p.dstIp}|${p.dstPort ?? ''}|${p.proto}`;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const K8S_ICMP = 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations (ICMP through win-overlay, win-bridge, Azure-CNI)';

/** The first address in a rule name's `_`-separated tokens (`SNAT_TCP_OUTBOUNDNAT_54194_10.180.160.134`). */
function ipInName(name: string): string | undefined {
  for (const tok of name.split('_')) if (familyOf(tok)) return tok;
  return undefined;
}

const GUID_TAIL = /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\d*$/i;

/**
 * The NAT address glued into an OutboundNAT pool name: `SLB_NATPOOL_IPV4_TCP_` + pod IP + NAT IP + GUID +
 * index, no separators (calico#4682 HNS allocator, TSC's model). Only readable when the pod IP is known.
 */
function ipInPoolName(pool: string, podIp: string): string | undefined {
  const at = pool.indexOf(podIp);
  if (at < 0) return undefined;
  const rest = pool.slice(at + podIp.length).replace(GUID_TAIL, '');
  return familyOf(rest) ? rest : undefined;
}

interface NatAddress {
  ip?: string;
  from: string;
  inferred: boolean;
  portRange?: string;
}

function sourceNatAddress(rule: VfpRule, e: VfpRuleEffect, p: Packet, ctx: ActionContext): NatAddress {
  if (e.natIp) return { ip: e.natIp, from: 'the rule data', inferred: false, portRange: e.natPortRange && `${e.natPortRange.lo}-${e.natPortRange.hi}` };
  if (e.modify.srcIp) return { ip: e.modify.srcIp, from: 'the rule\'s Modify values', inferred: false };
  const pool = e.natPool;
  if (ctx.policy) {
    const ranges = natRangesOf(ctx.policy);
    const fam = familyOf(p.srcIp);
    const mine = ranges.filter((r) => familyOf(r.ip) === fam && (pool === undefined || r.pool === undefined || r.pool === pool));
    const exact = mine.find((r) => pool !== undefined && r.pool === pool) ?? (mine.length === 1 ? mine[0] : undefined);
    if (exact) {
      return {
        ip: exact.ip,
        from: `the port's /list-nat-range output (entry ${exact.entry}${exact.pool ? ` of pool ${exact.pool}` : ''})`,
        inferred: false,
        portRange: exact.portLo !== undefined ? `${exact.portLo}-${exact.portHi ?? exact.portLo}` : undefined,
      };
    }
  }
  const named = ipInName(rule.name);
  if (named) return { ip: named, from: `the address in the rule's name${pool ? ` (the bundle has no NAT range for pool ${pool})` : ''}`, inferred: true };
  if (pool) {
    const inPool = ipInPoolName(pool, p.srcIp);
    if (inPool) return { ip: inPool, from: `the NAT pool's name ${pool} (pod address + NAT address + GUID)`, inferred: true };
  }
  const vip = ctx.hns?.outboundNatVip(p.srcIp);
  if (vip) return { ip: vip, from: 'the endpoint\'s HNS OutBoundNAT VIP', inferred: true };
  if (ctx.nodeIp && familyOf(ctx.nodeIp) === familyOf(p.srcIp)) return { ip: ctx.nodeIp, from: 'the node\'s address (HNS OutBoundNAT uses it when no VIP is set)', inferred: true };
  return { from: '', inferred: true };
}

export function applyRule(rule: VfpRule, p: Packet, ctx: ActionContext): ActionResult {
  const e = ruleEffect(rule);
  const sem = ruleSemantics(rule, e);
  const r = applyWith(rule, e, sem, p, ctx);
  // A type vfpctrl's `/?` does not document, whose effect was read from its data (a DIP range, a NAT
  // address, a Modify line): the data says what it would do, no documentation says VFP does it —
  // an inference, flagged like every other.
  if (sem.fromData && !r.unmodelled) r.inferred = true;
  return r;
}

function applyWith(rule: VfpRule, e: VfpRuleEffect, sem: ReturnType<typeof ruleSemantics>, p: Packet, ctx: ActionContext): ActionResult {
  const next: Packet = { ...p };
  const keepsState = rule.stateful || e.flowPair;
  const fromData = sem.fromData ? `rule type "${rule.type}" is not one vfpctrl documents; its effect is read from its data` : undefined;
  const isIcmp = p.proto === 'icmp';
  const transposes = sem.action === 'lb' || sem.action === 'nat';
  if (isIcmp && transposes) {
    return {
      kind: sem.action,
      action: 'not transposed (ICMP)',
      packet: next,
      icmpNotTransposed: true,
      keepsState: false,
      note: `the rule would rewrite addresses, but VFP does not transpose ICMP packets (Kubernetes docs, ${K8S_ICMP}): the packet goes on unchanged and an answer will not be translated back`,
    };
  }
  switch (sem.action) {
    case 'allow':
      return { kind: 'allow', action: 'allow', packet: next, keepsState };
    case 'block':
      return { kind: 'block', action: 'block', packet: next, keepsState: false };
    case 'pass':
      return { kind: 'pass', action: rule.type, packet: next, keepsState, note: `${rule.type} rules count, shape or mark traffic; they do not rewrite it` };
    case 'lb':
      return applyLb(rule, e, next, p, ctx, keepsState, fromData);
    case 'nat':
      return applyNat(rule, e, sem.info?.natDefault, !!sem.info?.pool, next, p, ctx, keepsState || !!sem.info?.pool, fromData);
    case 'encap':
      return applyEncap(rule, e, !!sem.info?.mapLookup, next, p, ctx, keepsState, fromData);
    case 'decap': {
      const had = next.encap;
      delete next.encap;
      return { kind: 'decap', action: 'decap', packet: next, keepsState, note: had ? `outer ${had.type} header from ${had.srcIp ?? '?'} removed` : 'no outer header on this packet to remove' };
    }
    case 'rewrite': {
      const rewrite: Rewrite = {};
      const m = e.modify;
      if (m.srcMac) next.srcMac = rewrite.srcMac = m.srcMac;
      if (m.dstMac) next.dstMac = rewrite.dstMac = m.dstMac;
      if (m.srcIp) next.srcIp = rewrite.srcIp = m.srcIp;
      if (m.dstIp) next.dstIp = rewrite.dstIp = m.dstIp;
      if (m.srcPort !== undefined) next.srcPort = rewrite.srcPort = m.srcPort;
      if (m.dstPort !== undefined) next.dstPort = rewrite.dstPort = m.dstPort;
      const any = Object.keys(rewrite).length > 0;
      const action = rewrite.srcIp || rewrite.dstIp || rewrite.srcPort !== undefined || rewrite.dstPort !== undefined ? 'rewrite' : 'MAC rewrite';
      return {
        kind: 'rewrite',
        action,
        packet: next,
        rewrite: any ? rewrite : undefined,
        keepsState,
        unmodelled: any ? undefined : `${rule.type} rule prints no Modify values: what it rewrites is not in the bundle`,
        note: fromData,
      };
    }
    case 'route': {
      next.paRoute = { rule: rule.name, ifIndex: e.interfaceIndex, compartment: e.compartment };
      return {
        kind: 'route',
        action: 'PA route',
        packet: next,
        keepsState,
        note: `the host routes the ${p.encap ? 'outer (provider-address) ' : ''}packet${e.compartment ? ` in the ${e.compartment === 'default' ? 'default' : e.compartment} compartment` : ''}${e.interfaceIndex !== undefined ? `, only through interface index ${e.interfaceIndex} (the rule's interface constraint)` : ''}`,
      };
    }
    default:
      return { kind: 'unknown', action: rule.type || 'unknown', packet: next, keepsState, unmodelled: sem.unmodelled, note: `${sem.unmodelled}: the walk continues with the packet unchanged` };
  }
}

function applyLb(rule: VfpRule, e: VfpRuleEffect, next: Packet, p: Packet, ctx: ActionContext, keepsState: boolean, fromData?: string): ActionResult {
  const dips = rule.dipRanges;
  const forced = ctx.flow.dip ? dips.findIndex((d) => canonIp(d.ip) === canonIp(ctx.flow.dip)) : -1;
  const idx = forced >= 0 ? forced : flowHash(p) % dips.length;
  // An empty list leaves no backend to pick (the index is NaN).
  const d = dips[idx];
  if (!d) return { kind: 'lb', action: 'LB', packet: next, keepsState, unmodelled: `${rule.type} rule lists no DIP range in the bundle: the backend is unknown` };
  const alternatives = dips.filter((_, i) => i !== idx).map((x) => hostPort(x.ip, x.port));
  const choice =
    dips.length === 1 ? 'the only backend' : forced >= 0 ? `backend chosen by you; ${dips.length} in the rule` : `VFP picks one of ${dips.length} backends per flow; this walk takes one by a hash of the 5-tuple (choose another with --dip)`;
  const inferredChoice = dips.length > 1 && forced < 0;
  // The guide's lbnat rules print "Modifying destination IP/port"; a rule that prints data without
  // them keeps the VIP and only sends the frame to the backend (direct server return).
  const says = e.rewrites.dstIp || e.rewrites.dstPort || e.macFixup || e.flowPair || e.decrementTtl || e.mapSpace !== undefined || e.unread.length > 0;
  const noData = !says;
  const dnatIp = noData || e.rewrites.dstIp;
  const dnatPort = d.port !== undefined && (noData || e.rewrites.dstPort);
  const rewrite: Rewrite = {};
  if (dnatIp) next.dstIp = rewrite.dstIp = d.ip;
  else next.l2Dst = d.ip;
  if (dnatPort && d.port !== p.dstPort) next.dstPort = rewrite.dstPort = d.port;
  const notes = [
    choice,
    noData ? 'the rule prints no rule data: the destination rewrite that the lbnat rules in Microsoft\'s Windows networking troubleshooting guide print ("Modifying destination IP/port") is assumed' : undefined,
    !dnatIp ? `the rule does not say "Modifying destination IP": the destination stays ${p.dstIp} and the frame goes to backend ${d.ip} (direct server return; the backend's own NAT rule translates it)` : undefined,
    fromData,
  ].filter(Boolean);
  return {
    kind: 'lb',
    action: dnatIp ? 'DNAT' : 'LB (DSR)',
    packet: next,
    rewrite: Object.keys(rewrite).length ? rewrite : undefined,
    alternatives,
    note: notes.join('; '),
    inferred: inferredChoice || noData || undefined,
    keepsState,
  };
}

function applyNat(
  rule: VfpRule,
  e: VfpRuleEffect,
  typeDefault: 'source' | 'destination' | undefined,
  pool: boolean,
  next: Packet,
  p: Packet,
  ctx: ActionContext,
  keepsState: boolean,
  fromData?: string,
): ActionResult {
  const w = e.rewrites;
  let side: 'source' | 'destination' | undefined = e.natKind ?? (w.srcIp || w.srcPort ? 'source' : w.dstIp || w.dstPort ? 'destination' : undefined);
  let sideFrom = side ? 'the rule data' : '';
  if (!side && e.hasData === false && !pool) {
    return {
      kind: 'nat',
      action: 'NAT',
      packet: next,
      keepsState,
      unmodelled: `${rule.type} rule prints no data: which address it rewrites, and to what, is not in the bundle (vfpctrl's default for "${rule.type}" is ${typeDefault === 'source' ? 'Source' : 'Dest'} NAT)`,
    };
  }
  if (!side) {
    side = typeDefault ?? 'source';
    sideFrom = `vfpctrl's default for "${rule.type}" (${side === 'source' ? 'Source' : 'Dest'} NAT)`;
  }
  if (side === 'source') {
    const a = sourceNatAddress(rule, e, p, ctx);
    if (!a.ip) return { kind: 'nat', action: 'SNAT', packet: next, keepsState, unmodelled: `nothing in the bundle names the address ${rule.name} translates the source to` };
    next.srcIp = a.ip;
    const rewrite: Rewrite = { srcIp: a.ip };
    const portNote = w.srcPort || pool ? `the source port is allocated by VFP from the NAT ${a.portRange ? `range ${a.portRange}` : 'pool'} (not knowable from the bundle; shown unchanged)` : undefined;
    return {
      kind: 'nat',
      action: 'SNAT',
      packet: next,
      rewrite,
      keepsState,
      inferred: a.inferred || undefined,
      note: [`NAT address from ${a.from}`, sideFrom !== 'the rule data' ? `source side from ${sideFrom}` : undefined, portNote, fromData].filter(Boolean).join('; '),
    };
  }
  // Destination NAT: the address the data names; a backend's own Dest NAT (DSR `NAT_<VIP>_…` rules on
  // the backend's IN groups) goes to the port's own address.
  const ip = e.natIp ?? e.modify.dstIp ?? ctx.portIp;
  if (!ip) return { kind: 'nat', action: 'DNAT', packet: next, keepsState, unmodelled: `nothing in the bundle names the address ${rule.name} translates the destination to` };
  const inferred = !e.natIp && !e.modify.dstIp;
  next.dstIp = ip;
  const rewrite: Rewrite = { dstIp: ip };
  const port = e.natPort ?? e.modify.dstPort;
  if (port !== undefined && port !== p.dstPort) next.dstPort = rewrite.dstPort = port;
  return {
    kind: 'nat',
    action: 'DNAT',
    packet: next,
    rewrite,
    keepsState,
    inferred: inferred || undefined,
    note: [inferred ? `the rule does not print its target: the port's own address ${ip} is assumed (a backend's Dest NAT)` : 'NAT address from the rule data', sideFrom !== 'the rule data' ? `destination side from ${sideFrom}` : undefined, fromData].filter(Boolean).join('; '),
  };
}

function applyEncap(rule: VfpRule, e: VfpRuleEffect, mapLookup: boolean, next: Packet, p: Packet, ctx: ActionContext, keepsState: boolean, fromData?: string): ActionResult {
  const typeFromRule = e.encapType;
  const type = typeFromRule ?? 'VXLAN';
  const notes: string[] = [];
  if (!typeFromRule) notes.push('the rule does not print its encap type: VXLAN (what Kubernetes overlay networks use) is assumed');
  if (fromData) notes.push(fromData);
  let pa: string | undefined;
  let mac: string | undefined;
  let vni = e.encapVni;
  let inferred = !typeFromRule;
  let alternatives: string[] | undefined;
  const [d] = rule.encapDestinations;
  if (!mapLookup && d) {
    pa = d.ip;
    mac = d.mac;
    vni ??= d.greKey;
    if (rule.encapDestinations.length > 1) {
      alternatives = rule.encapDestinations.slice(1).map((x) => x.ip);
      notes.push(`the rule lists ${rule.encapDestinations.length} destinations; the first is shown`);
      inferred = true;
    }
  } else {
    // Map-based encap: the outer destination is the provider address mapped to the inner destination.
    const maps = ctx.policy ? mappingsOf(ctx.policy) : [];
    const dst = canonIp(p.dstIp);
    const m = maps.find((x) => canonIp(x.ca) === dst);
    if (m) {
      pa = m.pa;
      mac = m.mac;
      vni ??= m.vni;
      notes.push(`provider address from the port's /list-mapping output (entry ${m.entry}${m.byOrder ? ', read by /add-mapping\'s [pa] [ca] order' : ''})`);
      if (m.byOrder) inferred = true;
    } else {
      const rsr = ctx.hns?.remoteSubnetFor(p.dstIp);
      const rep = rsr ? undefined : ctx.hns?.remoteEndpoint(p.dstIp);
      const space = e.mapSpace ? `map space ${e.mapSpace}` : 'the rule\'s map space';
      if (rsr) {
        pa = rsr.pa;
        mac = rsr.mac;
        vni ??= rsr.vni;
        inferred = true;
        notes.push(`${space} is not listed in the bundle with a mapping for ${p.dstIp}: the provider address comes from HNS RemoteSubnetRoute ${rsr.prefix} → ${rsr.pa} (inferred: only HNS says it)`);
      } else if (rep?.pa) {
        pa = rep.pa;
        mac = rep.mac;
        inferred = true;
        notes.push(`${space} is not listed in the bundle with a mapping for ${p.dstIp}: the provider address comes from the HNS remote endpoint's ProviderAddress (inferred)`);
      } else {
        return { kind: 'encap', action: 'encap', packet: next, keepsState, unmodelled: `${space} has no mapping for ${p.dstIp} in the bundle, and HNS names no provider address for it: where the packet is tunnelled is unknown` };
      }
    }
  }
  if (!pa) return { kind: 'encap', action: 'encap', packet: next, keepsState, unmodelled: `${rule.type} rule names no encap destination in the bundle` };
  next.encap = { type, srcIp: e.encapSourceIp ?? ctx.nodeIp, dstIp: pa, vni, dstMac: mac };
  return {
    kind: 'encap',
    action: 'encap',
    packet: next,
    rewrite: { encap: { type, dstIp: pa, vni } },
    alternatives,
    keepsState,
    inferred: inferred || undefined,
    note: notes.length ? notes.join('; ') : undefined,
  };
}
