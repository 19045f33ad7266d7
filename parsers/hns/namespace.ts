// HNS namespace (compartment) → HnsNamespace. v1: `CompartmentId`, `CompartmentGuid`, `IsDefault`,
// `ResourceList[{Type, Data{Id}}]`; v2: `NamespaceId` (the compartment number), `NamespaceGuid`,
// `Type` (Host, HostDefault, Guest, GuestDefault), `Resources[{Type: Endpoint|Container, Data{ID}}]`.

import type { SourceRef } from '../types.ts';
import type { HnsNamespace } from './types.ts';
import { asArr, asObj, asStr, bool, field, normGuid, num, str, type Lossy } from './access.ts';

export function normaliseNamespace(o: Record<string, unknown>, src: SourceRef, lossy: Lossy): HnsNamespace {
  const ns: HnsNamespace = {
    id: normGuid(str(o, 'ID', 'Id')) ?? '',
    endpointIds: [],
    containerIds: [],
    raw: o,
    src,
  };
  const comp = num(o, 'NamespaceId', 'CompartmentId', 'CompartmentID');
  if (comp !== undefined) ns.compartmentId = comp;
  const cg = normGuid(str(o, 'NamespaceGuid', 'CompartmentGuid'));
  if (cg) ns.compartmentGuid = cg;
  const type = asStr(field(o, 'Type'))?.trim();
  if (type) ns.type = type;
  const def = bool(o, 'IsDefault');
  if (def !== undefined) ns.isDefault = def;
  else if (type && /default$/i.test(type)) ns.isDefault = true;

  for (const key of ['Resources', 'ResourceList']) {
    const list = field(o, key);
    if (!Array.isArray(list) && typeof list !== 'string') continue;
    for (const r0 of asArr(list, lossy, key)) {
      const r = asObj(r0, lossy, `${key}[]`);
      if (!r) continue;
      const data = asObj(field(r, 'Data'), lossy, `${key}[].Data`);
      const id = normGuid(str(data, 'ID', 'Id') ?? str(r, 'ID', 'Id'));
      if (!id) continue;
      const rtype = asStr(field(r, 'Type'))?.toLowerCase() ?? '';
      if (rtype.includes('container')) ns.containerIds.push(id);
      else ns.endpointIds.push(id);
    }
  }
  return ns;
}
