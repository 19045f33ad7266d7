// Which HNS schema an object was serialised with. `SchemaVersion.Major` decides when present
// (hns.v2.psm1 queries with an explicit SchemaVersion); otherwise the v2-only member names do.

import type { HnsSchema } from './types.ts';
import { field, has, num } from './access.ts';
import { policiesLookV2 } from './policies.ts';

const V2_KEYS = ['IpConfigurations', 'Ipams', 'HostComputeEndpoints', 'FrontendVIPs', 'HostComputeNamespace', 'NamespaceId', 'PortMappings', 'NamespaceGuid'];

export function detectSchema(o: unknown): HnsSchema {
  const major = num(field(o, 'SchemaVersion'), 'Major');
  if (major === 1) return 1;
  if (major !== undefined && major >= 2) return 2;
  if (V2_KEYS.some((k) => has(o, k))) return 2;
  if (policiesLookV2(o)) return 2;
  return 1;
}
