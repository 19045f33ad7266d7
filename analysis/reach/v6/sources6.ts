// The IPv6 side of a dual-stack node for the matrix: the IPv6 address of every pod and of the host as
// sources, and the IPv6 default destinations (pods on their IPv6 Services' target ports, IPv6 Service
// ports, remote endpoints' IPv6 addresses, the node, the outside) — sources.ts over the IPv6 family.
import type { NodeModel } from '../../../parsers/model/types.ts';
import { destinationsOf, sourcesOf } from '../sources.ts';
import type { Endpoint, Source } from '../reach-types.ts';
import { IPV6 } from './family6.ts';

export { hasIpv6Pods, noRoutes6, OUTSIDE6 } from './family6.ts';
export { otherFamilyOf } from '../sources.ts';

/** Every local pod with an IPv6 address, and the host's IPv6 address. */
export const sources6 = (m: NodeModel): Source[] => sourcesOf(m, IPV6);

/** The IPv6 destinations of the default matrix, as defaultDestinations (matrix.ts) for IPv4. */
export const destinations6 = (m: NodeModel): Endpoint[] => destinationsOf(m, IPV6);
