// One VFP port, one direction: the layers in VFP's order (OUT — leaving the port's NIC into the
// switch — by ascending layer priority; IN — from the switch to the NIC — by descending), in each
// layer the groups of that direction and IP version by priority, in each group the rule VFP selects.
// A terminating rule ends its layer; a block ends the walk; a layer where nothing matched allows the
// packet only when the layer says "Default Allow".
import type { VfpLayer, VfpPortPolicy } from '../../parsers/vfp/index.ts';
import type { Packet, WalkHop } from './types.ts';
import { checkConditions, explainSkipped, selectRule } from './match.ts';
import { applyRule, type ActionContext } from './actions.ts';

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
}

const byPriority = (a: { priority?: number }, b: { priority?: number }) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER);

function isDefaultAllow(l: VfpLayer): boolean | undefined {
  if (l.flagNames?.some((f) => /default\s*allow/i.test(f))) return true;
  if (l.flagsText && /default\s*allow/i.test(l.flagsText)) return true;
  if (l.flags !== undefined) return (l.flags & 1) === 1;
  return undefined;
}

const sameDirection = (d: string, dir: 'IN' | 'OUT') => d.trim().toUpperCase() === dir;
const ipv4Group = (t: string) => !/6/.test(t);

export function walkPort(policy: VfpPortPolicy, portLabel: string, dir: 'IN' | 'OUT', start: Packet, ctx: ActionContext, opts: WalkOptions = {}): PortWalkResult {
  const hops: WalkHop[] = [];
  let packet = start;
  const layers = [...policy.layers].sort(byPriority);
  if (dir === 'IN') layers.reverse();
  const at = `${portLabel} ${dir}`;
  for (const layer of layers) {
    const groups = layer.groups.filter((g) => sameDirection(g.direction, dir) && ipv4Group(g.ipVersion)).sort(byPriority);
    if (!groups.length) continue;
    let matched = false;
    for (const g of groups) {
      const gc = checkConditions(g.conditions, packet);
      if (gc.result === 'miss') continue;
      const m = selectRule(g, packet);
      if (!m) continue;
      matched = true;
      const res = applyRule(m.rule, packet, ctx);
      const notes = [res.note, m.uncertain && `matched assuming: ${m.uncertain}`, gc.result === 'unknown' && `group condition not evaluable: ${gc.why}`].filter(Boolean);
      const hop: WalkHop = {
        at,
        kind: 'vfp',
        port: policy.portName,
        direction: dir,
        layer: layer.friendlyName ?? layer.id,
        group: g.friendlyName ?? g.id,
        rule: m.rule.name,
        ruleType: m.rule.type,
        priority: m.rule.priority,
        action: res.action,
        rewrite: res.rewrite,
        evidence: m.rule.src,
        inferred: res.inferred || !!m.uncertain || gc.result === 'unknown' || undefined,
        note: notes.length ? notes.join('; ') : undefined,
        before: packet,
        after: res.packet,
        alternatives: res.alternatives?.length ? res.alternatives : undefined,
        skipped: opts.explain ? explainSkipped(g, packet, m.rule) : undefined,
        stateful: m.rule.stateful || m.rule.ruleData.some((l) => /flow pair/i.test(l)) || undefined,
      };
      hops.push(hop);
      packet = res.packet;
      if (res.kind === 'block') {
        return { hops, packet, droppedAt: hops.length - 1, reason: `blocked by ${m.rule.name} (${layer.friendlyName ?? layer.id} / ${g.friendlyName ?? g.id}) on ${at}` };
      }
      if (m.rule.terminating) break;
    }
    if (!matched) {
      const allow = isDefaultAllow(layer);
      const name = layer.friendlyName ?? layer.id;
      if (allow === false || allow === undefined) {
        hops.push({
          at,
          kind: 'layer-default',
          port: policy.portName,
          direction: dir,
          layer: name,
          action: 'drop',
          evidence: layer.src,
          inferred: true,
          note:
            allow === false
              ? `no rule of layer ${name} matches and the layer is not "Default Allow": VFP drops unmatched packets`
              : `no rule of layer ${name} matches and the bundle does not print the layer's flags; VFP drops unmatched packets unless the layer is "Default Allow"`,
          before: packet,
          after: packet,
        });
        return { hops, packet, droppedAt: hops.length - 1, reason: `no rule in layer ${name} on ${at} matches the packet` };
      }
      hops.push({ at, kind: 'layer-default', port: policy.portName, direction: dir, layer: name, action: 'allow (layer default)', evidence: layer.src, note: `no rule of ${name} matches; the layer is "Default Allow"`, before: packet, after: packet });
    }
  }
  return { hops, packet };
}
