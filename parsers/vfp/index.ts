// Public surface of the VFP (vfpctrl text) parsers.
export type * from './types.ts';
export { parseVfpRuleText } from './policy-text.ts';
export type { VfpTextOptions } from './policy-text.ts';
export { parseVmSwitchPorts } from './switch-ports.ts';
export type { SwitchPortOptions } from './switch-ports.ts';
export { parseVfpOutputPortTable } from './port-table.ts';
export type { PortTableOptions } from './port-table.ts';
export { scanVfpOutput, materializeVfpPort, reviveVfpIndex } from './scan.ts';
export type { VfpIndex, VfpIndexLayer, VfpIndexPort, VfpOutputGeneration, VfpScanOptions } from './index-types.ts';
export { countVfpPolicy } from './count.ts';
export { makeCondition, parseIpv4Ranges, parsePortRanges } from './conditions.ts';
export { ipv4ToUint, uintToIpv4, ipv6ToHex, hexToIpv6 } from '../net/ip.ts';
export { parseVfpRuleJson, parseVmSwitchPortsJson } from './json-mode.ts';
export { parseIpv6Ranges } from './conditions.ts';
export { ruleEffect } from './rule-effect.ts';
export type { VfpRuleEffect } from './rule-effect.ts';
export { natRangesOf, mappingsOf } from './port-tables.ts';
export type { VfpNatRange, VfpMapping } from './port-tables.ts';
