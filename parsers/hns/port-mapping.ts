// A port mapping of an HNS load balancer or endpoint NAT policy: protocol and ports read strictly
// (parsers/text/numbers.ts). A mapping with a number refused (`ExternalPort: 1e309`, `Protocol: -0`)
// is left out — read as port 0 or protocol 0 (any) it would widen what the node forwards — and the
// object's warning names the value.
import { field, intValue, protocolNumber, type Lossy } from './access.ts';
import { PORT } from '../text/numbers.ts';

export interface PortMappingNumbers {
  protocol: number;
  internalPort: number;
  externalPort: number;
}

export function readPortMapping(o: unknown, lossy: Lossy | undefined, path: string): PortMappingNumbers | undefined {
  const protocol = protocolNumber(field(o, 'Protocol'), lossy, `${path}.Protocol`);
  const raw = { internal: field(o, 'InternalPort'), external: field(o, 'ExternalPort') };
  const internalPort = raw.internal === undefined ? 0 : intValue(raw.internal, PORT, lossy, `${path}.InternalPort`);
  const externalPort = raw.external === undefined ? 0 : intValue(raw.external, PORT, lossy, `${path}.ExternalPort`);
  if (protocol === undefined || internalPort === undefined || externalPort === undefined) return undefined;
  return { protocol, internalPort, externalPort };
}
