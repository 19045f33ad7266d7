// The empty GROUP and RULE objects the detailed parser (policy-text.ts) opens at each keyword line,
// before their fields are read.
import type { SourceRef } from '../types.ts';
import type { VfpGroup, VfpRule } from './types.ts';

export function emptyGroup(id: string, src: SourceRef): VfpGroup {
  return { id, direction: '', ipVersion: '', conditions: [], matchType: 'unknown', matchTypeText: '', rules: [], extra: {}, src };
}

export function emptyRule(id: string, src: SourceRef): VfpRule {
  return {
    id,
    name: id,
    flags: 0,
    flagNames: [],
    terminating: false,
    stateful: false,
    type: '',
    conditions: [],
    ruleData: [],
    dipRanges: [],
    encapDestinations: [],
    modify: {},
    extra: {},
    src,
  };
}
