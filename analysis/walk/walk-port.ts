// One VFP port, one direction: the layers in VFP's order (OUT — leaving the port's NIC into the
// switch — by ascending layer priority; IN — from the switch to the NIC — by descending), in each
// layer the groups of that direction and IP family by priority, in each group the rule VFP selects.
// Within a layer (Firestone, NSDI 2017, as summarised in ARCHITECTURE.md): a terminating match is
// applied at once and ends the layer; otherwise the last group that matched decides, so a
// non-terminating match of an earlier group is overridden. A layer where nothing matched allows
// the packet only when it says "Default Allow". On a reply walk, a layer that holds a flow of the
// request lets the packet through with the reverse rewrite before any rule is looked at.
import type { VfpGroup, VfpLayer, VfpPortPolicy } from '../../parsers/vfp/index.ts';
import type { MatchedCondition, Packet, Rewrite, WalkHop } from './types.ts';
import { checkConditions, explainMatch, explainSkipped, selectRule, type RuleMatch, type CondCheck } from './match.ts';
import { applyRule, effectOf, type ActionContext } from './actions.ts';
import type { FlowTable } from './flows.ts';
import { ipToInt } from './ip.ts';
import { typeInfo } from './semantics.ts';

export interface PortWalkResult {
  hops: WalkHop[];
  packet: Packet;
  /** Index in `hops` of the hop that dropped the packet. */
  droppedAt?: number;
  reason?: string;
}

export interface WalkOptions {
  /** Record the rules passed over before each match (the walkthrough's context). */
  explain?: boolean;
  /** Also walk the reply of a delivered or forwarded flow (`WalkResult.reply`). */
  reply?: boolean;
  /**
   * Start on the uplink with this packet, as another node sent it (a walk stitched across nodes,
   * analysis/cluster): VXLAN-encapsulated to this node's provider address, or routed to it. The source
   * is taken as outside the node whatever its address; `from` names the node it comes from.
   */
  arrive?: { packet: Packet; from?: string };
}

export interface PortWalkContext extends ActionContext {
  /** Reply walks: the flows the request created. */
  flows?: FlowTable;
}

const byPriority = (a: { priority?: number }, b: { priority?: number }) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER);

function isDefaultAllow(l: VfpLayer): boolean | undefined {
  if (l.flagNames?.some((f) => /default\s*allow/i.test(f))) return true;
  if (l.flagsText && /default\s*allow/i.test(l.flagsText)) return true;
  if (l.flags !== undefined) return (l.flags & 1) === 1;
  return undefined;
}

const sameDirection = (d: string, dir: 'IN' | 'OUT') => d.trim().toUpperCase() === dir;
/** Group `Type :` is `IPv4` or `IPv6` (SdnDiagnostics ValidateSet; vfpctrl `/add-group … in|out|inv6|outv6`). */
const familyOfGroup = (t: string): 4 | 6 => (/6/.test(t) ? 6 : 4);

export const layerName = (l: VfpLayer) => l.friendlyName ?? l.id;

/**
 * A port's layers in the order a direction crosses them, and a layer's groups of one direction and family
 * by priority, worked out once per parsed policy (a parsed policy is never changed; reach walks the
 * same ports tens of thousands of times). Sorting is stable, so the order is the one sorting every time gives.
 */
const layerOrder = new WeakMap<VfpPortPolicy, { OUT: VfpLayer[]; IN: VfpLayer[] }>();
const groupOrder = new WeakMap<VfpLayer, Map<string, VfpGroup[]>>();

function layersFor(policy: VfpPortPolicy, dir: 'IN' | 'OUT'): VfpLayer[] {
  let o = layerOrder.get(policy);
  if (!o) {
    const out = [...policy.layers].sort(byPriority);
    o = { OUT: out, IN: [...out].reverse() };
    layerOrder.set(policy, o);
  }
  return o[dir];
}

function groupsFor(layer: VfpLayer, dir: 'IN' | 'OUT', fam: 4 | 6): VfpGroup[] {
  let m = groupOrder.get(layer);
  if (!m) groupOrder.set(layer, (m = new Map()));
  const key = `${dir}${fam}`;
  let gs = m.get(key);
  if (!gs) m.set(key, (gs = layer.groups.filter((g) => sameDirection(g.direction, dir) && familyOfGroup(g.ipVersion) === fam).sort(byPriority)));
  return gs;
}

/**
 * A layer whose every rule only rewrites headers (transposition: the ExternalPort's
 * EXTERNAL_L2_REWRITE_LAYER, whose `<endpoint>_to_EN` rules turn a container's source MAC into the
 * host's) is no filter. The troubleshooting guide's dump of that layer prints no Flags line, yet the
 * host's own packets, whose MAC no rule names, cross it on every l2bridge node and reach the network:
 * dropping what it does not rewrite would cut every node off. Such a layer passes unmatched packets
 * (inferred; GUIDE "Reference EXTERNAL_L2_REWRITE_LAYER with rules transposing a container MAC").
 */
function rewriteOnly(l: VfpLayer): boolean {
  let n = 0;
  for (const g of l.groups)
    for (const r of g.rules) {
      n++;
      if (typeInfo(r.type)?.action !== 'rewrite') return false;
    }
  return n > 0;
}

function rewriteBetween(a: Packet, b: Packet): Rewrite | undefined {
  const r: Rewrite = {};
  if (a.srcIp !== b.srcIp) r.srcIp = b.srcIp;
  if (a.dstIp !== b.dstIp) r.dstIp = b.dstIp;
  if (a.srcPort !== b.srcPort && b.srcPort !== undefined) r.srcPort = b.srcPort;
  if (a.dstPort !== b.dstPort && b.dstPort !== undefined) r.dstPort = b.dstPort;
  return Object.keys(r).length ? r : undefined;
}

/** The matched rule's conditions, then its group's (marked), each against the packet. */
function matchedBecause(g: VfpGroup, m: RuleMatch, p: Packet): MatchedCondition[] {
  const out = explainMatch(m.rule.conditions, p);
  if (g.conditions.length) for (const c of explainMatch(g.conditions, p)) out.push({ ...c, field: `${c.field} (group)` });
  return out;
}

interface Candidate {
  g: VfpGroup;
  m: RuleMatch;
  gc: CondCheck;
}

export function walkPort(policy: VfpPortPolicy, portLabel: string, dir: 'IN' | 'OUT', start: Packet, ctx: PortWalkContext, opts: WalkOptions = {}): PortWalkResult {
  const hops: WalkHop[] = [];
  let packet = start;
  const layers = layersFor(policy, dir);
  const at = `${portLabel} ${dir}`;
  const fam = ipToInt(start.srcIp) !== undefined ? 4 : 6;
  const actx: ActionContext = { ...ctx, policy };
  for (const layer of layers) {
    const name = layerName(layer);
    const flow = ctx.flows?.match(policy.portName, name, packet);
    if (flow) {
      const after: Packet = { ...packet, srcIp: flow.to.srcIp, dstIp: flow.to.dstIp, srcPort: flow.to.srcPort, dstPort: flow.to.dstPort };
      const rw = rewriteBetween(packet, after);
      hops.push({
        at,
        kind: 'vfp',
        port: policy.portName,
        direction: dir,
        layer: name,
        group: flow.hop.group,
        rule: flow.hop.rule,
        ruleType: flow.hop.ruleType,
        priority: flow.hop.priority,
        action: rw ? 'flow (reverse rewrite)' : 'flow (allow)',
        effect: { kind: 'flow', reverse: !!rw },
        rewrite: rw,
        evidence: flow.hop.evidence,
        note: `matches the flow the request created at this layer (hop ${flow.hopIndex + 1}: ${flow.hop.rule ?? flow.hop.at}); VFP applies the flow before the layer's rules`,
        before: packet,
        after,
        flow: true,
        stateful: true,
      });
      packet = after;
      continue;
    }
    const groups = groupsFor(layer, dir, fam);
    if (!groups.length) continue;
    let decided: Candidate | undefined;
    const pending: Candidate[] = [];
    for (const g of groups) {
      const gc = checkConditions(g.conditions, packet);
      if (gc.result === 'miss') continue;
      const m = selectRule(g, packet);
      if (!m) continue;
      if (m.rule.terminating) {
        decided = { g, m, gc };
        break;
      }
      pending.push({ g, m, gc });
    }
    if (!decided && pending.length) decided = pending[pending.length - 1];
    for (const c of pending) {
      if (c === decided) break;
      hops.push({
        at,
        kind: 'vfp',
        port: policy.portName,
        direction: dir,
        layer: name,
        group: c.g.friendlyName ?? c.g.id,
        rule: c.m.rule.name,
        ruleType: c.m.rule.type,
        priority: c.m.rule.priority,
        action: 'matched, overridden',
        effect: { kind: 'pass' },
        evidence: c.m.rule.src,
        superseded: true,
        matchedBecause: matchedBecause(c.g, c.m, packet),
        note: `a non-terminating match; a later group of ${name} also matches, and VFP applies the last group's match (NSDI 2017 paper)`,
        before: packet,
        after: packet,
      });
    }
    if (decided) {
      const { g, m, gc } = decided;
      let res = applyRule(m.rule, packet, actx);
      // A reply is part of the connection its request opened: a NAT or load-balancing rule of a layer the
      // request crossed does not rewrite it (OutboundNAT and service rules are for connections the pod
      // opens; replies to probes, NodePorts and other pods' connections are not NATed on a real node).
      const rw = res.rewrite;
      if (ctx.flows && rw && (rw.srcIp !== undefined || rw.dstIp !== undefined || rw.srcPort !== undefined || rw.dstPort !== undefined) && (res.kind === 'nat' || res.kind === 'lb') && ctx.flows.crossed(policy.portName, name)) {
        res = {
          kind: 'allow',
          action: 'not applied (reply)',
          packet,
          keepsState: false,
          inferred: true,
          note: `the answer belongs to a connection that came in through this layer; VFP's connection state keeps ${m.rule.name} from rewriting it (inferred: VFP documents flows per connection, not this case)`,
        };
      }
      const notes = [
        res.note,
        m.uncertain && `matched assuming: ${m.uncertain}`,
        gc.result === 'unknown' && `group condition not evaluable: ${gc.why}`,
        m.tie &&
          (m.tieSame
            ? `rule ${m.tie.name} has the same priority, also matches and does the same thing`
            : `rule ${m.tie.name} has the same priority ${m.rule.priority ?? ''} and also matches: which of the two a real node applies is undefined`),
      ].filter(Boolean);
      const hop: WalkHop = {
        at,
        kind: 'vfp',
        port: policy.portName,
        direction: dir,
        layer: name,
        group: g.friendlyName ?? g.id,
        rule: m.rule.name,
        ruleType: m.rule.type,
        priority: m.rule.priority,
        action: res.action,
        effect: effectOf(res, packet),
        rewrite: res.rewrite,
        evidence: m.rule.src,
        inferred: res.inferred || !!m.uncertain || gc.result === 'unknown' || (!!m.tie && !m.tieSame) || undefined,
        note: notes.length ? notes.join('; ') : undefined,
        before: packet,
        after: res.packet,
        alternatives: res.alternatives?.length ? res.alternatives : undefined,
        skipped: opts.explain ? explainSkipped(g, packet, m.rule) : undefined,
        matchedBecause: matchedBecause(g, m, packet),
        stateful: res.keepsState || undefined,
        unmodelled: res.unmodelled,
        ambiguous: m.tie && !m.tieSame ? `${m.rule.name} and ${m.tie.name} (priority ${m.rule.priority ?? '?'})` : undefined,
      };
      hops.push(hop);
      packet = res.packet;
      if (hop.effect?.kind === 'block') {
        return { hops, packet, droppedAt: hops.length - 1, reason: `blocked by ${m.rule.name} (${name} / ${g.friendlyName ?? g.id}) on ${at}` };
      }
      continue;
    }
    const allow = isDefaultAllow(layer);
    if (allow === undefined && rewriteOnly(layer)) {
      hops.push({
        at,
        kind: 'layer-default',
        port: policy.portName,
        direction: dir,
        layer: name,
        action: 'pass (nothing to rewrite)',
        effect: { kind: 'pass' },
        evidence: layer.src,
        inferred: true,
        note: `no rule of ${name} matches; the layer prints no flags, but all its rules only rewrite headers (transpositions): it is taken to pass what it does not rewrite, as the host's own traffic through it on every node shows`,
        before: packet,
        after: packet,
      });
      continue;
    }
    if (allow === false || allow === undefined) {
      hops.push({
        at,
        kind: 'layer-default',
        port: policy.portName,
        direction: dir,
        layer: name,
        action: 'drop',
        effect: { kind: 'drop', why: 'layer-default' },
        evidence: layer.src,
        inferred: true,
        note:
          allow === false
            ? `no rule of layer ${name} matches and the layer is not "Default Allow": VFP drops unmatched packets`
            : `no rule of layer ${name} matches and the layer prints no flags (vfpctrl prints "Default Allow" on the layers that have it): VFP drops unmatched packets`,
        before: packet,
        after: packet,
      });
      return { hops, packet, droppedAt: hops.length - 1, reason: `no rule in layer ${name} on ${at} matches the packet${ctx.flows ? ' and the request left no flow there' : ''}` };
    }
    hops.push({ at, kind: 'layer-default', port: policy.portName, direction: dir, layer: name, action: 'allow (layer default)', effect: { kind: 'pass' }, evidence: layer.src, note: `no rule of ${name} matches; the layer is "Default Allow"`, before: packet, after: packet });
  }
  return { hops, packet };
}
