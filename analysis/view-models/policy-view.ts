// A port's parsed VFP policy as the inspector shows it: layers by priority, groups, rules with their
// conditions, data and counters, each with its file:line.
import type { VfpPortPolicy, VfpRule } from '../../parsers/vfp/index.ts';
import type { PortPolicyView, VfpRuleView } from './types.ts';

const byPriority = <T extends { priority?: number }>(a: T, b: T) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER);

export function ruleView(r: VfpRule): VfpRuleView {
  const data: string[] = [];
  if (r.dipRanges.length) data.push(`DIPs: ${r.dipRanges.map((d) => `${d.ip}${d.port !== undefined ? `:${d.port}` : ''}`).join(', ')}`);
  for (const e of r.encapDestinations) data.push(`encap → ${e.ip}${e.mac ? ` (${e.mac})` : ''}${e.greKey !== undefined ? ` VNI ${e.greKey}` : ''}`);
  if (r.encapType) data.push(`encap type ${r.encapType}${r.encapSourceIp ? ` from ${r.encapSourceIp}` : ''}`);
  for (const [k, v] of Object.entries(r.modify)) data.push(`rewrite ${k} → ${v}`);
  for (const l of r.ruleData) if (!data.includes(l)) data.push(l);
  const c = r.counters;
  return {
    id: r.id,
    name: r.name,
    priority: r.priority,
    type: r.type,
    flags: r.flagNames,
    conditions: r.conditions.map((x) => ({ key: x.key, value: x.value })),
    data,
    counters: c ? { matched: c.matchedPackets, dropped: c.droppedPackets, pending: c.pendingPackets, droppedFlows: c.droppedFlows } : undefined,
    src: r.src,
  };
}

export function policyView(p: VfpPortPolicy): PortPolicyView {
  let ruleCount = 0;
  const layers = [...p.layers].sort(byPriority).map((l) => ({
    id: l.id,
    name: l.friendlyName ?? l.id,
    priority: l.priority,
    flags: l.flagNames ?? [],
    src: l.src,
    groups: [...l.groups].sort(byPriority).map((g) => {
      ruleCount += g.rules.length;
      return {
        id: g.id,
        name: g.friendlyName ?? g.id,
        priority: g.priority,
        direction: g.direction,
        ipVersion: g.ipVersion,
        matchType: g.matchTypeText || g.matchType,
        conditions: g.conditions.map((x) => ({ key: x.key, value: x.value })),
        rules: [...g.rules].sort(byPriority).map(ruleView),
        src: g.src,
      };
    }),
  }));
  return { portName: p.portName, blocked: p.blocked, portState: p.portState, layers, ruleCount, src: p.src };
}
