// The address helpers every layer shares, in one place: IPv4 (ip4.ts), IPv6 (ip6.ts), prefixes of both
// families (cidr.ts). All are total: bad input yields null/undefined instead of throwing, because they
// run on text read from unknown nodes. Import from here. MACs: mac.ts.
export { intToIpv4, ipv4PrefixRange, ipv4ToInt, ipv4ToUint, isApipa, isIpv4, maskToPrefix, prefixMaskUint, prefixToMask, uintToIpv4 } from './ip4.ts';
export { hexToIpv6, ipv6PrefixRange, ipv6ToHex, isIpv6, mappedIpv4, rangeBits6 } from './ip6.ts';
export { cidrContains, compareIp, firstHostOf, parseCidr, prefixRange4, prefixRange6, type Cidr } from './cidr.ts';

export { normalizeMac, type MacSpellings } from './mac.ts';
