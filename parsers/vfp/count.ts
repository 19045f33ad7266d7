// Counts as the CLI reports them (`vfpLayers`, `vfpRules` = LAYER and RULE blocks): synthetic
// layers/groups stand for blocks the text did not print, so they are not counted.
import type { VfpPortPolicy } from './types.ts';

export interface VfpPolicyCounts {
  layers: number;
  groups: number;
  rules: number;
}

export function countVfpPolicy(port: VfpPortPolicy): VfpPolicyCounts {
  let layers = 0, groups = 0, rules = 0;
  for (const l of port.layers) {
    if (!l.synthetic) layers++;
    for (const g of l.groups) {
      if (!g.synthetic) groups++;
      rules += g.rules.length;
    }
  }
  return { layers, groups, rules };
}
