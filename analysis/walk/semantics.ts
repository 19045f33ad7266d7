// What each VFP rule type does, as far as the primary sources say. The type is only a hint: actions.ts
// reads the rule's own data first (parsers/vfp/rule-effect.ts) and falls back to the type's default
// where the data is silent. Sources (full citations in ARCHITECTURE.md, "The packet walk"):
//   HELP  vfpctrl.exe 10.0.18362 usage text, `/add-rule` data keywords and flags
//   ETW   microsoft/SDN Diagnostics/VFP_VMSwitch_Parsers/etl_vfpext.npl, VFPEXT_MapRuleType
//   GUIDE "Troubleshooting Kubernetes Networking on Windows: Part 1" (D. Schott, Microsoft, 2019)
//   K79359 kubernetes/kubernetes#79359 (dynnat rule dump); TSC microsoft/SDN TroubleShootContainerNetworking.ps1
//   VFPPSM microsoft/SDN Kubernetes/windows/debug/VFP.psm1 (paroute rule)
import type { VfpRule, VfpRuleEffect } from '../../parsers/vfp/index.ts';
import { ruleEffect } from '../../parsers/vfp/rule-effect.ts';

export type RuleAction =
  /** passes the packet (the layer's verdict is "allow") */
  | 'allow'
  | 'block'
  /** load balancing: one of the rule's DIPs (lbnat) */
  | 'lb'
  /** static or dynamic NAT (nat, dynnat, mapnat) */
  | 'nat'
  /** outer header added: explicit destinations (routeencap) or looked up in a map space (mapencap, `m encaps`) */
  | 'encap'
  | 'decap'
  /** explicit header rewrite (transposition `Modify:`) */
  | 'rewrite'
  /** provider-address routing by the host (paroute) */
  | 'route'
  /** no effect on addresses or the verdict (meter, qos, mark) */
  | 'pass'
  | 'unknown';

export interface TypeInfo {
  action: RuleAction;
  /** When the data does not say which side a NAT rewrites: HELP's default for the type. */
  natDefault?: 'source' | 'destination';
  /** Dynamic NAT: the address comes from a NAT pool. */
  pool?: boolean;
  /** Map-based encap: the destination comes from a map space. */
  mapLookup?: boolean;
  /** Why the engine reads the type this way. */
  basis: string;
}

/**
 * Printed type (normalised: lower case, no spaces, `_` or `-`) → what it does. The one table every
 * consumer reads through `typeInfo` / `ruleAction`: the walk and the checks that recognise rule kinds
 * (lb-vfp, drift, network-policy-acl-addresses). Exported so a test can add an alias here and show
 * that every consumer follows (test/unit/checks/rule-kinds.test.ts); nothing else writes to it.
 */
export const RULE_TYPES: Record<string, TypeInfo> = {
  allow: { action: 'allow', basis: 'HELP "allow, block … :" take no data; GUIDE/SdnDiagnostics#629 dumps' },
  block: { action: 'block', basis: 'HELP; SdnDiagnostics#629 and kubernetes#79359 dumps' },
  lbnat: { action: 'lb', basis: 'HELP lbnat "[diprange] [port] ..64", flags Modify destination IP/port, MAC fixup, Create flow; GUIDE LB rules' },
  // Every LB_DSR_* rule seen (networkhealth.ps1's expectations, the hand-written bundles) prints type lbnat;
  // a dump that spells the type after the rule family is read the same way.
  lbdsr: { action: 'lb', basis: 'LB_DSR_* rules are lbnat rules in the DSR layer (networkhealth.ps1)' },
  nat: { action: 'nat', natDefault: 'destination', basis: 'HELP nat "[ip] [port]", flags "256:Source NAT; 512:Dest NAT (default)"' },
  dynnat: { action: 'nat', natDefault: 'source', pool: true, basis: 'HELP dynnat "[nat_id]", flags "256:Source NAT (default); 512:Dest NAT"; kubernetes#79359 dump; TSC models SNAT_…_OUTBOUNDNAT_… as dynnat' },
  dynamicnat: { action: 'nat', natDefault: 'source', pool: true, basis: 'ETW rule type 5 DynamicNat (the JSON output names types by this enum)' },
  mapnat: { action: 'nat', natDefault: 'destination', basis: 'HELP mapnat, flags "256:Source NAT (default is Dest NAT)"' },
  tunnelednat: { action: 'nat', natDefault: 'source', basis: 'HELP tunnelednat (Azure host NAT modes; not programmed for Kubernetes)' },
  routeencap: { action: 'encap', basis: 'HELP routeencap "[src_pa] [dest_pa] [mac] [key] ..8"; GUIDE REMOTESUBNETROUTE rules' },
  encap: { action: 'encap', basis: 'GUIDE (ENCAP rules); treated as routeencap when it prints destinations, else as a map lookup' },
  mapencap: { action: 'encap', mapLookup: true, basis: 'HELP mapencap "[space] … [key] [flags]", flags "4096:MAC lookup; 8192:CA route"' },
  mencaps: { action: 'encap', mapLookup: true, basis: 'GUIDE overlay ENCAP rule "Type : m encaps" with "Map space", "GRE key", "CA routing enabled"' },
  natencap: { action: 'encap', basis: 'treated as routeencap' },
  decap: { action: 'decap', basis: 'HELP decap "[metadata type]", flags Preserve Inner MAC, Push VSID/TNI' },
  mapdecap: { action: 'decap', basis: 'HELP mapdecap' },
  transposition: { action: 'rewrite', basis: 'ETW rule type 20 Transposition; HELP transpose "modify [src_mac] [dst_mac] [src_ip] [dst_ip] …"; GUIDE EXTERNAL_L2_REWRITE rules' },
  transpose: { action: 'rewrite', basis: 'HELP transpose' },
  paroute: { action: 'route', basis: 'HELP paroute "[compartment_id] [vlan_id] [cache_limit] [cache_entry_timeout] [ifindex]"; VFPPSM dump; ETW "PA route rule … next hop ip … resolved MAC"' },
  meter: { action: 'pass', basis: 'ETW rule type 3 Meter (counts; no rewrite)' },
  qos: { action: 'pass', basis: 'HELP qos "[rate in Mbps] …" (rate limit; no rewrite)' },
  mark: { action: 'pass', basis: 'HELP mark "[DSCP class]" (no address rewrite)' },
  profile: { action: 'pass', basis: 'ETW rule type 15 Profile' },
};

const norm = (t: string) => t.toLowerCase().replace(/[\s_-]+/g, '');

/** The known meaning of a printed type (`m encaps`, `LbNat`, `Dynamic NAT` all normalise), or undefined. */
export function typeInfo(type: string): TypeInfo | undefined {
  return RULE_TYPES[norm(type)];
}

/** Types vfpctrl knows but whose effect the walk does not model (CA↔PA mapping rewrites, redirects, ping responder). */
const NOT_MODELLED = new Set(['mapin', 'mapout', 'mapipin', 'mapipout', 'mapmacin', 'mapmacout', 'mapaddr', 'redirect', 'caredirect', 'pingresponse']);

export interface RuleSemantics {
  action: RuleAction;
  info?: TypeInfo;
  /** The action was read from the rule's data because the type is not one the engine knows. */
  fromData?: boolean;
  /** Why the effect cannot be modelled. */
  unmodelled?: string;
}

/** The action of a rule: its type's meaning, or — for a type the engine does not know — what its data says it rewrites. */
export function ruleSemantics(rule: VfpRule, e: VfpRuleEffect): RuleSemantics {
  const info = typeInfo(rule.type);
  if (info) {
    // `encap` printed with explicit destinations is a route encap; without, a map lookup.
    if (norm(rule.type) === 'encap' && !rule.encapDestinations.length) return { action: 'encap', info: { ...info, mapLookup: true } };
    return { action: info.action, info };
  }
  const w = e.rewrites;
  if (rule.dipRanges.length) return { action: 'lb', fromData: true };
  if (rule.encapDestinations.length || e.mapSpace !== undefined && e.encapType !== undefined) return { action: 'encap', fromData: true, info: { action: 'encap', mapLookup: !rule.encapDestinations.length, basis: 'read from the rule data' } };
  if (e.natKind || e.natIp || e.natPool || ((w.srcIp || w.dstIp || w.srcPort || w.dstPort) && !Object.keys(e.modify).length)) return { action: 'nat', fromData: true, info: { action: 'nat', pool: !!e.natPool, basis: 'read from the rule data' } };
  if (Object.keys(e.modify).length) return { action: 'rewrite', fromData: true };
  if (e.decap) return { action: 'decap', fromData: true };
  if (e.interfaceIndex !== undefined || e.compartment !== undefined) return { action: 'route', fromData: true };
  const t = rule.type || '(none printed)';
  return {
    action: 'unknown',
    unmodelled: NOT_MODELLED.has(norm(rule.type))
      ? `rule type "${t}" (a CA/PA mapping, redirect or ping-responder rule) is not modelled by the walk`
      : `rule type "${t}" is not one vfpctrl documents, and its data says nothing the walk understands${e.unread.length ? ` (${e.unread.slice(0, 3).join('; ')})` : ''}`,
  };
}

/**
 * What a rule does, for code that recognises rule kinds without walking a packet (the checks): its
 * type's meaning, else what its data says it rewrites (`ruleSemantics`), else 'unknown'. Never the
 * printed words: a type spelled otherwise is recognised once RULE_TYPES knows it.
 */
export function ruleAction(rule: VfpRule): RuleAction {
  // A known type decides without reading the rule's data (checks call this on every rule of every port).
  return typeInfo(rule.type)?.action ?? ruleSemantics(rule, ruleEffect(rule)).action;
}
