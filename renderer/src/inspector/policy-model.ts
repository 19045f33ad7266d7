// Pure helpers for the VFP policy view: ordering, filtering and locating a rule. Unit-tested.
import type { PortPolicyView, VfpLayerView, VfpRuleView } from '../../../analysis/view-models/types.ts';
import type { RuleFocus } from '../store/selection.ts';

export const RULE_PAGE = 200;

const byPriority = <T extends { priority?: number }>(a: T, b: T) => (a.priority ?? Number.MAX_SAFE_INTEGER) - (b.priority ?? Number.MAX_SAFE_INTEGER);

/** Layers in the order VFP evaluates them (ascending priority), groups likewise; rules keep file order
 *  within equal priority, as vfpctrl lists them. */
export function orderedLayers(p: PortPolicyView): VfpLayerView[] {
  return [...p.layers].sort(byPriority).map((l) => ({ ...l, groups: [...l.groups].sort(byPriority) }));
}

export function ruleText(r: VfpRuleView): string {
  return `${r.name} ${r.type} ${r.flags.join(' ')} ${r.conditions.map((c) => `${c.key} ${c.value}`).join(' ')} ${r.data.join(' ')}`.toLowerCase();
}

/** Keeps the rules matching every term; layers and groups left empty are dropped. */
export function filterPolicy(layers: VfpLayerView[], filter: string): VfpLayerView[] {
  const terms = filter.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!terms.length) return layers;
  const out: VfpLayerView[] = [];
  for (const l of layers) {
    const groups = l.groups
      .map((g) => ({ ...g, rules: g.rules.filter((r) => terms.every((t) => ruleText(r).includes(t))) }))
      .filter((g) => g.rules.length);
    if (groups.length) out.push({ ...l, groups });
  }
  return out;
}

export interface RuleLocation {
  layer: string;
  group: string;
  index: number;
  rule: VfpRuleView;
}

/** Finds the rule a search hit points at: by line when it has one, else by name. */
export function locateRule(layers: VfpLayerView[], focus: RuleFocus): RuleLocation | undefined {
  // The line names one rule exactly; the name may repeat (the same rule name in two groups).
  let byLine: RuleLocation | undefined;
  let byName: RuleLocation | undefined;
  for (const l of layers)
    for (const g of l.groups)
      g.rules.forEach((r, index) => {
        if (focus.line && r.src.line === focus.line && !byLine) byLine = { layer: l.id, group: g.id, index, rule: r };
        if (!byName && r.name === focus.name) byName = { layer: l.id, group: g.id, index, rule: r };
      });
  return byLine ?? byName;
}

export function layerRuleCount(l: VfpLayerView): number {
  return l.groups.reduce((n, g) => n + g.rules.length, 0);
}

/** A stable key for a layer or group, unique within the port (ids can repeat across layers). */
export const layerKey = (l: VfpLayerView, i: number) => `${i}:${l.id || l.name}`;
