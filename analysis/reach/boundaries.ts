// What can tell two packets apart on this node, as cut points per dimension (the header space of
// issue #25: destination IPv4 address, then destination port per protocol). Everything the walk reads
// to decide is a boundary: every VFP rule and group condition on every port (the source's OUT layers,
// the destinations' IN layers, the host vNIC's and the uplink's), route prefixes and gateways, load
// balancer VIPs and ports, endpoint, host and provider addresses, remote subnets, OutBoundNAT
// exceptions, the Service range, and the special IPv4 blocks (RFC 6890). Boundaries do not depend on
// the source, so they are computed once per model; a source a rule's source condition excludes only
// costs a few extra cells, never a wrong one.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { VfpCondition, VfpPortPolicy } from '../../parsers/vfp/index.ts';
import { cidrRange, ipToInt, maskBits } from '../walk/ip.ts';
import { walkContext } from '../walk/context.ts';
import { serviceRanges } from '../k8s/service-range.ts';
import { Cuts, atomIndex, type Interval } from './intervals.ts';

export const IP_MAX = 0xffffffff;
export const PORT_MIN = 1;
export const PORT_MAX = 65535;
/** Address atoms a port condition may cut one by one; wider ranges cut the ports of every atom. */
const WIDE = 64;

/** RFC 6890 blocks the host stack treats apart (this network, loopback, link-local, multicast, reserved, broadcast). */
const SPECIAL = ['0.0.0.0/8', '127.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '240.0.0.0/4', '255.255.255.255/32'];

export interface Boundaries {
  /** Destination address atoms (IPv4). */
  ipAtoms: Interval[];
  /** Port atoms per protocol for one address atom. */
  portAtoms(atom: number, proto: 'tcp' | 'udp'): Interval[];
  /** Rules that compare the source port: the partition holds the source port at the walk's default. */
  srcPortRules: number;
  /** Ports whose rules were read. */
  portsRead: number;
  /** Rules read. */
  rulesRead: number;
}

interface PortContribution {
  ranges: Interval[] | null;
  protos: number[] | null;
  cuts: Interval[];
}

const cache = new WeakMap<NodeModel, Boundaries>();
const cacheHns = new WeakMap<NodeModel, Boundaries>();

/** Every boundary, every port's VFP rules included (the exhaustive cells of `reachFromCells`). */
export function boundaries(m: NodeModel): Boundaries {
  let b = cache.get(m);
  if (!b) {
    b = build(m, true);
    cache.set(m, b);
  }
  return b;
}

/**
 * The boundaries that do not come from VFP rules (HNS, routes, addresses, load balancers, the Service
 * range, RFC 6890): `reachFrom` adds a layer's rules only for the classes whose walks cross that layer
 * (layer-cuts.ts), so no port's rules are read up front.
 */
export function hnsBoundaries(m: NodeModel): Boundaries {
  let b = cacheHns.get(m);
  if (!b) {
    b = build(m, false);
    cacheHns.set(m, b);
  }
  return b;
}

function addCidr(c: Cuts, cidr: string | undefined): void {
  const r = cidrRange(cidr);
  if (r) c.add(r.lo, r.hi);
}

function addIp(c: Cuts, ip: string | undefined): void {
  const n = ipToInt(ip?.trim());
  if (n !== undefined) c.add(n, n);
}

const condRanges = (conds: VfpCondition[], kind: 'dstIp'): Interval[] | null => {
  const c = conds.find((x) => x.kind === kind);
  return c?.ipRanges?.length ? c.ipRanges : null;
};

function readRules(policy: VfpPortPolicy, ip: Cuts, contribs: Map<string, PortContribution>, counts: { rules: number; srcPort: number }): void {
  for (const layer of policy.layers)
    for (const g of layer.groups) {
      for (const c of g.conditions) if (c.kind === 'dstIp') for (const r of c.ipRanges ?? []) ip.add(r.lo, r.hi);
      for (const rule of g.rules) {
        counts.rules++;
        const conds = [...g.conditions, ...rule.conditions];
        for (const c of rule.conditions) if (c.kind === 'dstIp') for (const r of c.ipRanges ?? []) ip.add(r.lo, r.hi);
        if (conds.some((c) => c.kind === 'srcPort')) counts.srcPort++;
        const ports = conds.filter((c) => c.kind === 'dstPort').flatMap((c) => c.ports ?? []);
        if (!ports.length) continue;
        const ranges = condRanges(rule.conditions, 'dstIp') ?? condRanges(g.conditions, 'dstIp');
        const protos = conds.find((c) => c.kind === 'protocols')?.protocols ?? null;
        const key = `${ranges?.map((r) => `${r.lo}-${r.hi}`).join(',') ?? '*'}|${protos?.join(',') ?? '*'}|${ports.map((r) => `${r.lo}-${r.hi}`).join(',')}`;
        if (!contribs.has(key)) contribs.set(key, { ranges, protos, cuts: ports });
      }
    }
}

function build(m: NodeModel, withRules: boolean): Boundaries {
  const ctx = walkContext(m);
  const ip = new Cuts<number>(0, IP_MAX);
  const contribs = new Map<string, PortContribution>();
  const counts = { rules: 0, srcPort: 0 };
  let portsRead = 0;
  for (const s of SPECIAL) addCidr(ip, s);
  // VFP rules of every port that has them.
  for (const p of withRules ? (m.ports ?? []) : []) {
    if (!p.policy || !m.vfp) continue;
    const policy = m.vfp.getPolicy(p.key);
    if (!policy) continue;
    portsRead++;
    readRules(policy, ip, contribs, counts);
  }
  // HNS: endpoints, their routes and OutBoundNAT exceptions; networks' subnets and remote subnets.
  for (const e of m.endpoints ?? []) {
    addIp(ip, e.ip);
    addIp(ip, e.gateway);
    addIp(ip, e.providerAddress);
    for (const r of e.routes) addCidr(ip, r.destinationPrefix);
    for (const o of e.outboundNat) {
      for (const x of o.exceptions) addCidr(ip, x);
      for (const x of o.destinations ?? []) addCidr(ip, x);
      addIp(ip, o.vip);
    }
  }
  for (const n of m.networks ?? []) {
    addIp(ip, n.managementIp);
    addIp(ip, n.providerAddress);
    for (const s of n.subnets) {
      addCidr(ip, s.prefix);
      addIp(ip, s.gateway);
    }
    for (const r of n.remoteSubnetRoutes) {
      addCidr(ip, r.destinationPrefix);
      addIp(ip, r.providerAddress);
    }
    for (const r of n.hostRoutes ?? []) addCidr(ip, r.destinationPrefix);
  }
  // The host's addresses (every compartment's) and its routing table.
  for (const h of ctx.hostIps) addIp(ip, h);
  for (const c of m.ip?.compartments ?? [])
    for (const a of c.adapters) {
      for (const x of a.ipv4) {
        addIp(ip, x.address);
        // The adapter's subnet decides on-link or via the gateway in a pod's compartment (engine.ts compartmentHop).
        const bits = x.prefixLength ?? maskBits(x.mask);
        if (bits !== undefined) addCidr(ip, `${x.address}/${bits}`);
      }
      for (const g of a.gateways) addIp(ip, g);
    }
  for (const r of ctx.routes ?? []) {
    ip.add(r.lo, r.hi);
    addIp(ip, r.route.gateway);
    addIp(ip, r.route.interface);
  }
  for (const s of serviceRanges(m)) addCidr(ip, s.cidr);
  // Load balancers: each VIP, and its ports; NodePorts on the host's addresses.
  const lbPorts: { ranges: Interval[] | null; proto: number; port: number }[] = [];
  const hostRanges = [...ctx.hostIps].map((h) => ipToInt(h)).filter((n): n is number => n !== undefined).map((n) => ({ lo: n, hi: n }));
  for (const lb of m.loadBalancers ?? []) {
    const vips = lb.vips.map((v) => ipToInt(v)).filter((n): n is number => n !== undefined);
    for (const v of vips) ip.add(v, v);
    addIp(ip, lb.sourceVip);
    const ranges = vips.length ? vips.map((v) => ({ lo: v, hi: v })) : hostRanges;
    for (const p of lb.ports) if (p.externalPort) lbPorts.push({ ranges, proto: p.protocol, port: p.externalPort });
    // A NodePort answers on the node's addresses too.
    if (vips.some((v) => hostRanges.some((h) => h.lo === v))) for (const p of lb.ports) if (p.externalPort) lbPorts.push({ ranges: hostRanges, proto: p.protocol, port: p.externalPort });
  }
  for (const e of m.endpoints ?? [])
    for (const pm of e.portMappings ?? []) {
      const v = ipToInt(pm.vip);
      lbPorts.push({ ranges: v !== undefined ? [{ lo: v, hi: v }] : hostRanges, proto: pm.protocol, port: pm.externalPort });
    }

  const ipAtoms = ip.atoms();
  const globalCuts = { 6: new Cuts<number>(PORT_MIN, PORT_MAX), 17: new Cuts<number>(PORT_MIN, PORT_MAX) };
  const perAtom = new Map<number, { 6: Cuts; 17: Cuts }>();
  const atCuts = (i: number, proto: 6 | 17) => {
    let x = perAtom.get(i);
    if (!x) perAtom.set(i, (x = { 6: new Cuts<number>(PORT_MIN, PORT_MAX), 17: new Cuts<number>(PORT_MIN, PORT_MAX) }));
    return x[proto];
  };
  const apply = (ranges: Interval[] | null, protos: number[] | null, cut: (c: Cuts) => void) => {
    for (const proto of [6, 17] as const) {
      if (protos && !protos.includes(proto)) continue;
      if (!ranges) {
        cut(globalCuts[proto]);
        continue;
      }
      for (const r of ranges) {
        const first = atomIndex(ipAtoms, r.lo);
        const last = atomIndex(ipAtoms, r.hi);
        // A range over many atoms cuts the ports everywhere instead: more cells, never a wrong one, and
        // the work stays linear in the rules however wide a hostile dump makes its ranges.
        if (last - first > WIDE) cut(globalCuts[proto]);
        else for (let i = first; i <= last; i++) cut(atCuts(i, proto));
      }
    }
  };
  for (const c of contribs.values()) apply(c.ranges, c.protos, (x) => c.cuts.forEach((r) => x.add(r.lo, r.hi)));
  for (const l of lbPorts) apply(l.ranges, [l.proto], (x) => x.add(l.port, l.port));
  const memo = new Map<string, Interval[]>();
  return {
    ipAtoms,
    portAtoms(atom, proto) {
      const n = proto === 'tcp' ? 6 : 17;
      const key = `${atom}|${n}`;
      let out = memo.get(key);
      if (!out) {
        const own = perAtom.get(atom)?.[n];
        if (!own) out = globalCuts[n].atoms();
        else {
          const c = new Cuts<number>(PORT_MIN, PORT_MAX);
          c.addAll(globalCuts[n]);
          c.addAll(own);
          out = c.atoms();
        }
        if (memo.size < 100_000) memo.set(key, out);
      }
      return out;
    },
    srcPortRules: counts.srcPort,
    portsRead,
    rulesRead: counts.rules,
  };
}
