// Which vfpctrl policy-text keys belong to which block (policy-text.ts): the keys that end a rule's
// sub-block, the group's own keys, the port-state fields, and the small value readers they share.
import { counterField } from './rule-values.ts';
import type { Line } from './text-lines.ts';

export type SubMode = 'conditions' | 'ruleData' | 'encap' | 'dip' | 'modify';

export interface SubBlock {
  mode: SubMode;
  headerIndent: number;
  firstIndent?: number;
}

export interface OpenSection {
  command: string;
  line: number;
  lines: Line[];
}

/** Keys that end a Rule Data / Modify block or a Conditions list (they belong to the rule itself). */
export const RULE_BLOCK_END = new Set([
  'flagsex',
  'encap destinations',
  'dip ranges',
  'modify',
  'transposition',
  'set vlan',
  'priority',
  'flags',
  'type',
  'friendly name',
  'conditions',
  'flow ttl',
  'rule data',
]);
export const RULE_VALUE_KEYS = new Set(['encap source ip', 'encap type', 'map space', 'gre key', 'count of dip ranges']);
export const GROUP_KEYS = new Set(['friendly name', 'priority', 'direction', 'type', 'conditions', 'match type']);
/** SdnDiagnostics VfpPortState fields: seeing one means /get-port-state output has begun. */
export const PORT_STATE_KEYS = new Set([
  'enabled',
  'blocked',
  'blockonrestore',
  'blocklayercreation',
  'preservevlan',
  'isvmcontextset',
  'vmqenabled',
  'sriovenabled',
  'offloadstate',
  'qoshardwarereservationsenabled',
  'qoshardwarecapsenabled',
  'gftoffloadenabled',
]);

/** `Source NAT;         NAT pool : SLB_NATPOOL_…` → the pool name. */
export function natPoolIn(value: string): string | undefined {
  const i = value.toLowerCase().indexOf('nat pool');
  if (i < 0) return undefined;
  const rest = value.slice(i + 8).replace(/^\s*:\s*/, '').trim();
  return rest === '' ? undefined : rest.split(/[\s;]+/)[0];
}

export function isRuleFieldKey(nk: string): boolean {
  return RULE_BLOCK_END.has(nk) || RULE_VALUE_KEYS.has(nk) || counterField(nk) !== undefined;
}

export function addExtra(extra: Record<string, string>, key: string, value: string): void {
  extra[key] = key in extra && extra[key] !== '' ? `${extra[key]}; ${value}` : value;
}
