// The VFP policy model as vfpctrl prints it (text, or `/format 1` JSON mapped onto the same shapes).
// Values are kept as printed where vfpctrl's spelling is not fully known (rule types, directions), so the
// analysis layer decides what a spelling means instead of this parser silently guessing.
import type { SourceRef } from '../types.ts';

export type VfpConditionKind =
  | 'protocols'
  | 'srcIp'
  | 'dstIp'
  | 'srcPort'
  | 'dstPort'
  | 'srcMac'
  | 'dstMac'
  | 'vlan'
  | 'other';

/** Inclusive numeric range: IPv4 addresses as uint32, or ports. */
export interface NumRange {
  lo: number;
  hi: number;
}

/** Inclusive IPv6 range, each end as 32 lower-case hex digits. */
export interface Ip6Range {
  lo: string;
  hi: string;
}

export interface VfpCondition {
  /** Key as printed, e.g. `Destination IP`. */
  key: string;
  /** Value as printed, e.g. `10.244.3.0-10.244.3.255` or the underscore form some dumps print, `10_244_3_0-10_244_3_255`. */
  value: string;
  kind: VfpConditionKind;
  /** IPv4 ranges (uint32) for srcIp/dstIp. */
  ipRanges?: NumRange[];
  /** IPv6 ranges for srcIp/dstIp as 32-digit lower-case hex strings (fixed width, so string order is numeric order; JSON-safe). */
  ip6Ranges?: Ip6Range[];
  ports?: NumRange[];
  protocols?: number[];
  /** Upper-case, dash-separated MACs. */
  macs?: string[];
}

export interface VfpDipRange {
  ip: string;
  port?: number;
}

export interface VfpEncapDestination {
  ip: string;
  mac?: string;
  greKey?: number;
  /** Other `property=value` pairs of the `{ ... }` entry. */
  extra: Record<string, string>;
}

export interface VfpRuleCounters {
  matchedPackets?: number;
  droppedPackets?: number;
  pendingPackets?: number;
  droppedFlows?: number;
}

export interface VfpRule {
  /** GUID or name after `RULE :`; '' when the line carries no id (the rule is then known by its friendly name). */
  id: string;
  friendlyName?: string;
  /** Best display name: friendlyName ?? id. */
  name: string;
  /** Absent when the block lacks a Priority line (truncated output). */
  priority?: number;
  flags: number;
  flagNames: string[];
  terminating: boolean;
  stateful: boolean;
  /** Lower-case as printed: allow, block, lbnat, nat, routeencap, transposition, paroute, `m encaps`, ... (the first `Type :` line). */
  type: string;
  /**
   * A second `Type :` line inside the rule, as printed: kubernetes/kubernetes#79359 shows a dynnat rule
   * with `Type : Source NAT;         NAT pool : SLB_NATPOOL_…` after its `MSS delta` line.
   */
  typeDetail?: string;
  /** `NAT pool : <name>` wherever the rule prints it (dynnat rules). */
  natPool?: string;
  conditions: VfpCondition[];
  flowTtl?: number;
  /** Raw (trimmed) lines of the `Rule Data:` block. */
  ruleData: string[];
  dipRanges: VfpDipRange[];
  encapDestinations: VfpEncapDestination[];
  encapSourceIp?: string;
  encapType?: string;
  greKey?: number;
  mapSpace?: string;
  /** `Modify:` pairs, e.g. `Source MAC` → `00-15-5D-05-C3-0C`. */
  modify: Record<string, string>;
  counters?: VfpRuleCounters;
  flagsEx?: number;
  /** Every other `Key : value` of the block. */
  extra: Record<string, string>;
  src: SourceRef;
}

export type VfpMatchType = 'priority' | 'lpm' | 'unknown';

export interface VfpGroup {
  /** '' for a synthetic group (rules printed without their GROUP, e.g. `/layer L /group G /list-rule`). */
  id: string;
  friendlyName?: string;
  priority?: number;
  /** `IN` / `OUT` (upper-cased when recognised), otherwise as printed; '' when absent. */
  direction: string;
  /** `IPv4` / `IPv6` (normalised from IPV4/ipv4), otherwise as printed; '' when absent. */
  ipVersion: string;
  conditions: VfpCondition[];
  matchType: VfpMatchType;
  matchTypeText: string;
  rules: VfpRule[];
  extra: Record<string, string>;
  /** True when the text had no GROUP line for these rules. */
  synthetic?: boolean;
  src: SourceRef;
}

export interface VfpLayer {
  id: string;
  friendlyName?: string;
  priority?: number;
  flags?: number;
  /** Text after the flag number, e.g. `Default Allow , Update flows on address change`. */
  flagsText?: string;
  flagNames?: string[];
  groups: VfpGroup[];
  extra: Record<string, string>;
  /** True when the text had no LAYER line for these groups (output filtered with /layer). */
  synthetic?: boolean;
  src: SourceRef;
}

export interface VfpSection {
  /** vfpctrl verb (`get-rule-counter`, `list-rule`, `get-port-state`, ...), '' when unknown. */
  command: string;
  line: number;
}

export interface VfpOtherSection extends VfpSection {
  /** Trimmed non-empty lines of a vfpctrl output this parser does not model (list-space, list-mapping, ...). */
  lines: string[];
}

export interface VfpPortPolicy {
  /** Port GUID; '' when neither the text nor the caller named it. */
  portName: string;
  layers: VfpLayer[];
  portState: Record<string, string>;
  blocked?: boolean;
  natRanges: string[];
  sections: VfpSection[];
  flowStats: Record<string, string>;
  otherSections: VfpOtherSection[];
  /** True when the text had no `Policy for port :` line for this port. */
  implicit?: boolean;
  src: SourceRef;
}

export interface VfpPortCounters {
  in: Record<string, number>;
  out: Record<string, number>;
}

export interface VfpSwitchPort {
  /** Port GUID (`Port name`). */
  name: string;
  friendlyName?: string;
  switchName?: string;
  switchFriendlyName?: string;
  portId?: number;
  mac?: string;
  portType?: string;
  nicName?: string;
  nicFriendlyName?: string;
  vmName?: string;
  vmId?: string;
  mtu?: number;
  /** Sentence lines such as `Port is enabled.`, `MAC Learning is disabled.`. */
  states: string[];
  /** Everything else, statistics included. */
  fields: Record<string, string>;
  counters?: VfpPortCounters;
  src: SourceRef;
}

/** One row of the `Port name  Mac Address  PortId` table at the top of vfpOutput.txt. */
export interface VfpPortTableRow {
  name: string;
  mac?: string;
  portId?: string;
  extra: Record<string, string>;
  src: SourceRef;
}
