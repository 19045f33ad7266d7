// Policies come as v1 `{Type, Key: value...}` or v2 `{Type, Settings: {...}}`; both become
// {type, settings} so the per-type readers below do not care which schema they came from.

import type { HnsPolicy } from './types.ts';
import { asArr, asObj, asStr, field, has, isObj, type Lossy } from './access.ts';

export function readPolicies(o: unknown, lossy: Lossy, path = 'Policies'): HnsPolicy[] {
  const out: HnsPolicy[] = [];
  for (const p0 of asArr(field(o, 'Policies'), lossy, path)) {
    const p = asObj(p0, lossy, `${path}[]`);
    if (!p) continue;
    const type = asStr(field(p, 'Type'))?.trim() ?? '';
    let settings: Record<string, unknown>;
    if (has(p, 'Settings')) {
      settings = asObj(field(p, 'Settings'), lossy, `${path}[].Settings`) ?? {};
    } else {
      settings = {};
      for (const [k, v] of Object.entries(p)) if (k.toLowerCase() !== 'type') settings[k] = v;
    }
    out.push({ type, settings });
  }
  return out;
}

export function policiesOfType(policies: HnsPolicy[], ...types: string[]): HnsPolicy[] {
  const t = types.map((x) => x.toLowerCase());
  return policies.filter((p) => t.includes(p.type.toLowerCase()));
}

/** True when the policy objects carry v2 `Settings` (a schema hint when nothing else decides). */
export function policiesLookV2(o: unknown): boolean {
  const list = field(o, 'Policies');
  return Array.isArray(list) && list.some((p) => isObj(p) && has(p, 'Settings'));
}
