// The IPv4 family of reach (family.ts): addresses as uint32 numbers. This is the hot path of a big
// node's partition (the layer cuts read a group's bounds from a Float64Array, the rule index is keyed
// by the number itself), so it stays on plain numbers.
import type { VfpCondition, VfpGroup } from '../../parsers/vfp/index.ts';
import { familyOf, intToIp, ipToInt } from '../walk/ip.ts';
import { hnsBoundaries } from './boundaries.ts';
import type { AddrFamily } from './family.ts';
import type { Endpoint } from './reach-types.ts';
import { remotePodSubnets } from './remote-subnets.ts';

/** Sorted piece starts (lo and hi + 1) of every IPv4 address condition of a group and its rules. */
const boundsCache = new WeakMap<VfpGroup, Float64Array>();
function groupBounds(g: VfpGroup): Float64Array {
  let b = boundsCache.get(g);
  if (b) return b;
  const s = new Set<number>();
  const add = (conds: VfpCondition[]) => {
    for (const c of conds) if ((c.kind === 'dstIp' || c.kind === 'srcIp') && c.ipRanges) for (const r of c.ipRanges) s.add(r.lo).add(r.hi + 1);
  };
  add(g.conditions);
  for (const r of g.rules) add(r.conditions);
  b = Float64Array.from(s).sort();
  boundsCache.set(g, b);
  return b;
}

/** An address outside the cluster (example.com's), as the walk presets use for pod → outside. */
export const OUTSIDE = '93.184.216.34';

export const IPV4: AddrFamily<number> = {
  name: 'IPv4',
  other: 'IPv6',
  max: 0xffffffff,
  parse: ipToInt,
  print: intToIp,
  middle: (i) => i.lo + Math.floor((i.hi - i.lo) / 2),
  // The partition prints its examples as the walk does (dotted quads): the same text is the same address.
  same: (field, ex) => field === ex,
  hnsBoundaries,
  isGroup: (g) => !/6/.test(g.ipVersion),
  groupBounds,
  indexKey: (a) => a,
  indexKeyOf: ipToInt,
  notes: () => [],
  addressOf: (e) => (familyOf(e.ip) === 4 ? e.ip : undefined),
  nodeIp: (ctx) => ctx.nodeIp,
  // Every load balancer: a pod's IPv4 address stands for the ports any Service targets on it.
  podServices: (m) => m.loadBalancers ?? [],
  serviceWord: '',
  remoteDestinations: (m) => remotePodSubnets(m).map((s): Endpoint => ({ ip: s.example, proto: 'icmp', name: `remote pod subnet ${s.prefix}`, inferred: s.inferred, remote: true })),
  outside: OUTSIDE,
};
