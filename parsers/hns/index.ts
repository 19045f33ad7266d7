// Public surface of the HNS object parsers.
export type * from './types.ts';
export { classifyHnsObject } from './classify.ts';
export { normaliseHnsObject, type NormalisedHns } from './normalise.ts';
export { parseHnsFile, parseNetworkTxt, parseNetworkDetailedTxt, parseEndpointTxt, parseNamespacesTxt, parsePolicyTxt, type HnsFileOptions } from './parse-hns-file.ts';
export { parsePortPoolAllocsTxt, type PortPoolAlloc } from './port-pools.ts';
export { normGuid, normMac } from './access.ts';
export { ENDPOINT_FLAGS } from './endpoint.ts';
export { LB_FLAGS, LB_PORT_FLAGS } from './load-balancer.ts';
