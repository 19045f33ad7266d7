// What a reachability change's packets are addressed to, for grouping Compare's list (by source, then
// destination kind): a pod of the node, a Service VIP, the node, a remote pod subnet, the node's own
// pod subnet, or other addresses (a range that spans several of these, the outside). Told from both
// bundles: a destination only one of them has (a pod that came or went) is still named. A range is
// given a kind only when it lies wholly inside what names it; otherwise it is "other addresses".
import type { NodeModel } from '../../parsers/model/types.ts';
import type { ReachChange } from '../reach/index.ts';
import { remotePodSubnets } from '../reach/index.ts';
import { checkContext } from '../checks/context.ts';
import { k8sNames } from '../k8s/index.ts';
import { walkContext } from '../walk/context.ts';
import { canonIp, cidrRange, familyOf, ipToInt } from '../walk/ip.ts';

export type DestinationKind = 'pod' | 'service' | 'node' | 'remote-subnet' | 'pod-subnet' | 'other';

/** The kinds in the order the list shows them, with their group titles. */
export const DESTINATION_KINDS: readonly { kind: DestinationKind; title: string }[] = [
  { kind: 'pod', title: 'Pods of this node' },
  { kind: 'service', title: 'Services' },
  { kind: 'node', title: 'The node' },
  { kind: 'pod-subnet', title: "This node's pod subnet" },
  { kind: 'remote-subnet', title: 'Remote pod subnets' },
  { kind: 'other', title: 'Other addresses' },
];

export interface ChangeDestination {
  kind: DestinationKind;
  /** The pod, Service or subnet by name, when one bundle names it. */
  name?: string;
}

interface Named {
  /** Single addresses, IPv4 and IPv6, by their canonical text. */
  ip: Map<string, ChangeDestination>;
  ranges: { lo: number; hi: number; d: ChangeDestination }[];
}

function namedOf(m: NodeModel): Named {
  const names = k8sNames(m);
  const ip = new Map<string, ChangeDestination>();
  const ranges: Named['ranges'] = [];
  const put = (a: string | undefined, d: ChangeDestination) => {
    const n = canonIp(a);
    if (n !== undefined && !ip.has(n)) ip.set(n, d);
  };
  const ctx = walkContext(m);
  for (const node of [ctx.nodeIp, ctx.nodeIp6]) if (node) put(node, { kind: 'node', name: 'node' });
  const pods = checkContext(m).localPods;
  // A dual-stack pod by both its addresses (a change from an IPv6 source is addressed to IPv6 ones).
  for (const e of pods) for (const a of [e.ip, e.ipv6]) put(a, { kind: 'pod', ...(names.podLabel(e.ip) ? { name: names.podLabel(e.ip) } : {}) });
  for (const lb of m.loadBalancers ?? [])
    for (const v of lb.vips) {
      const name = names.serviceLabel(v) ?? names.lbLabel(lb);
      put(v, { kind: 'service', ...(name ? { name } : {}) });
    }
  for (const s of remotePodSubnets(m)) {
    const r = cidrRange(s.prefix);
    if (r) ranges.push({ lo: r.lo, hi: r.hi, d: { kind: 'remote-subnet', name: `remote pod subnet ${s.prefix}` } });
  }
  // A subnet of the node's networks is its pod subnet when a pod of the node is in it (a NAT network's
  // subnet, for one, holds no pod).
  const podInts = pods.flatMap((e) => (familyOf(e.ip) === 4 ? [ipToInt(e.ip)!] : []));
  for (const n of m.networks ?? [])
    for (const s of n.subnets) {
      const r = cidrRange(s.prefix);
      if (r && podInts.some((p) => r.lo <= p && p <= r.hi)) ranges.push({ lo: r.lo, hi: r.hi, d: { kind: 'pod-subnet', name: `pod subnet ${s.prefix}` } });
    }
  return { ip, ranges };
}

/** A function that tells each change's destination, looked up in bundle A, then in bundle B. */
export function changeDestinations(a: NodeModel, b: NodeModel): (c: Pick<ReachChange, 'dst'>) => ChangeDestination {
  const sides = [namedOf(a), namedOf(b)];
  return (c) => {
    const lo = ipToInt(c.dst[0]);
    const hi = ipToInt(c.dst[1]);
    if (c.dst[0] === c.dst[1])
      for (const s of sides) {
        const d = s.ip.get(canonIp(c.dst[0]) ?? c.dst[0]);
        if (d) return d;
      }
    // Ranges are IPv4 (remote pod subnets, the node's pod subnet); an IPv6 range is "other addresses".
    if (lo === undefined || hi === undefined) return { kind: 'other' };
    for (const s of sides) {
      const r = s.ranges.find((x) => x.lo <= lo && hi <= x.hi);
      if (r) return r.d;
    }
    return { kind: 'other' };
  };
}
