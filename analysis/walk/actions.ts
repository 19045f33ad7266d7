// What a matched VFP rule does to the packet. Rule types are vfpctrl's lower-case spellings; the
// rewrite each one makes is read from the rule's own data (DIP ranges, NAT IP, encap destinations,
// Modify lines). Where the data does not name a value the engine needs, the result says so.
import type { VfpRule } from '../../parsers/vfp/index.ts';
import type { Flow, Packet, Rewrite } from './types.ts';

export type ActionKind = 'allow' | 'block' | 'dnat' | 'snat' | 'encap' | 'mac-rewrite' | 'route' | 'unknown';

export interface ActionResult {
  kind: ActionKind;
  /** Verb shown in the hop. */
  action: string;
  packet: Packet;
  rewrite?: Rewrite;
  note?: string;
  inferred?: boolean;
  alternatives?: string[];
}

export function classifyRuleType(type: string): ActionKind {
  const t = type.toLowerCase().replace(/\s+/g, ' ').trim();
  if (t === 'allow') return 'allow';
  if (t === 'block' || t === 'deny' || t === 'drop') return 'block';
  if (t === 'lbnat' || t === 'lb nat' || t === 'tunnelednat') return 'dnat';
  if (t === 'nat' || t === 'dynamicnat' || t === 'snat') return 'snat';
  if (t === 'routeencap' || t === 'encap' || t === 'mapencap' || t === 'm encaps' || t === 'natencap') return 'encap';
  if (t === 'transposition') return 'mac-rewrite';
  if (t === 'paroute' || t === 'route') return 'route';
  return 'unknown';
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

function dataValue(rule: VfpRule, re: RegExp): string | undefined {
  for (const line of rule.ruleData) {
    const m = re.exec(line);
    if (m) return m[1].trim();
  }
  for (const [k, v] of Object.entries(rule.extra)) {
    const m = re.exec(`${k} : ${v}`);
    if (m) return m[1].trim();
  }
  return undefined;
}

export interface ActionContext {
  flow: Flow;
  /** The node's own address, for SNAT rules whose data does not name their NAT IP. */
  nodeIp?: string;
}

export function applyRule(rule: VfpRule, p: Packet, ctx: ActionContext): ActionResult {
  const kind = classifyRuleType(rule.type);
  const next: Packet = { ...p };
  switch (kind) {
    case 'allow':
      return { kind, action: 'allow', packet: next };
    case 'block':
      return { kind, action: 'block', packet: next };
    case 'dnat': {
      const dips = rule.dipRanges;
      if (!dips.length) return { kind, action: 'DNAT', packet: next, inferred: true, note: `${rule.type} rule lists no DIP range in the bundle; the destination is left unchanged` };
      const forced = ctx.flow.dip ? dips.findIndex((d) => d.ip === ctx.flow.dip) : -1;
      const idx = forced >= 0 ? forced : flowHash(p) % dips.length;
      const d = dips[idx];
      next.dstIp = d.ip;
      if (d.port !== undefined) next.dstPort = d.port;
      const rewrite: Rewrite = { dstIp: d.ip };
      if (d.port !== undefined && d.port !== p.dstPort) rewrite.dstPort = d.port;
      const alternatives = dips.filter((_, i) => i !== idx).map((x) => `${x.ip}${x.port !== undefined ? `:${x.port}` : ''}`);
      return {
        kind,
        action: 'DNAT',
        packet: next,
        rewrite,
        alternatives,
        note:
          dips.length === 1
            ? 'the only backend'
            : forced >= 0
              ? `backend chosen by you; ${dips.length} in the rule`
              : `VFP picks one of ${dips.length} backends per flow; this walk takes one by a hash of the 5-tuple (choose another with --dip)`,
        inferred: dips.length > 1 && forced < 0,
      };
    }
    case 'snat': {
      const natIp = dataValue(rule, /(?:Source NAT IP|NAT IP|Nat ip|VIP)\s*:\s*(\d+\.\d+\.\d+\.\d+)/i);
      const ip = natIp ?? ctx.nodeIp;
      if (!ip) return { kind, action: 'SNAT', packet: next, inferred: true, note: 'the rule does not name its NAT address and the node IP is not in the bundle' };
      next.srcIp = ip;
      const rewrite: Rewrite = { srcIp: ip };
      const portRange = dataValue(rule, /NAT port range\s*:\s*(\S+)/i);
      return {
        kind,
        action: 'SNAT',
        packet: next,
        rewrite,
        inferred: !natIp,
        note: natIp
          ? `source port rewritten from the rule's NAT port range${portRange ? ` ${portRange}` : ''}`
          : `the rule does not print its NAT address; the node IP ${ip} is assumed (OutboundNAT uses the node's address)`,
      };
    }
    case 'encap': {
      const dest = rule.encapDestinations[0];
      const vni = dest?.greKey ?? rule.greKey;
      const type = rule.encapType ?? dataValue(rule, /Encap type\s*:\s*(\S+)/i) ?? 'VXLAN';
      if (!dest) {
        return { kind, action: 'encap', packet: next, inferred: true, note: `${rule.type} rule names no encap destination in the bundle` };
      }
      next.encap = { type, srcIp: rule.encapSourceIp, dstIp: dest.ip, vni, dstMac: dest.mac };
      return { kind, action: 'encap', packet: next, rewrite: { encap: { type, dstIp: dest.ip, vni } } };
    }
    case 'mac-rewrite': {
      const rewrite: Rewrite = {};
      for (const [k, v] of Object.entries(rule.modify)) {
        if (/source mac/i.test(k)) {
          next.srcMac = v;
          rewrite.srcMac = v;
        } else if (/dest(ination)? mac/i.test(k)) {
          next.dstMac = v;
          rewrite.dstMac = v;
        } else if (/source ip/i.test(k)) {
          next.srcIp = v;
          rewrite.srcIp = v;
        } else if (/dest(ination)? ip/i.test(k)) {
          next.dstIp = v;
          rewrite.dstIp = v;
        }
      }
      return { kind, action: 'MAC rewrite', packet: next, rewrite, inferred: Object.keys(rewrite).length === 0, note: Object.keys(rewrite).length ? undefined : 'the rule prints no Modify values' };
    }
    case 'route':
      return { kind, action: 'route', packet: next, note: 'provider-address route (forwarding decision, no rewrite)' };
    default:
      return { kind, action: rule.type || 'unknown', packet: next, inferred: true, note: `rule type "${rule.type}" is not modelled; the packet is assumed to pass unchanged` };
  }
}
