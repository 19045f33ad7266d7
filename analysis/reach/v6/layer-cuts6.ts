// Where the IPv6 rules of the VFP layers a cell's walks crossed tell the cell's packets apart: the
// IPv6 side of layer-cuts.ts, same reasoning. A layer's groups carry one family ("Type : IPv6",
// vfpctrl /add-group "[in|out|inv6|outv6]"; the walk takes only the packet's family's groups:
// walk/walk-port.ts), so only IPv6 groups are read here. A packet field that is the example's own
// destination address or port (unchanged so far, or the reply's source) varies over the cell; any
// other field is the same for every packet of it, so a rule whose condition on a fixed field misses
// matches no packet of the cell, and the conditions of the others on varying fields are cut points.
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { VfpCondition, VfpGroup, VfpLayer, VfpRule } from '../../../parsers/vfp/index.ts';
import type { Packet, WalkResult } from '../../walk/types.ts';
import { checkCondition, compiledGroup } from '../../walk/match.ts';
import { layerName } from '../../walk/walk-port.ts';
import { canonIp, ipv6ToHex } from '../../walk/ip.ts';
import type { Interval } from '../intervals.ts';
import { hexToBig, type Interval6 } from './addr6.ts';

export interface CellCuts6 {
  /** Starts of new address pieces strictly inside the cell's address interval. */
  ip: bigint[];
  /** Starts of new port pieces strictly inside the cell's port interval (none when `ip` has some). */
  ports: number[];
}

const isV6Group = (g: VfpGroup) => /6/.test(g.ipVersion);
const sameDirection = (d: string, dir: string) => d.trim().toUpperCase() === dir;
const byValue = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);

/** Sorted piece starts (lo and hi + 1) of every IPv6 address condition of a group and its rules. */
const boundsCache = new WeakMap<VfpGroup, bigint[]>();
function ipBounds6(g: VfpGroup): bigint[] {
  let b = boundsCache.get(g);
  if (b) return b;
  const s = new Set<bigint>();
  const add = (conds: VfpCondition[]) => {
    for (const c of conds)
      if ((c.kind === 'dstIp' || c.kind === 'srcIp') && c.ip6Ranges)
        for (const r of c.ip6Ranges) {
          s.add(hexToBig(r.lo));
          s.add(hexToBig(r.hi) + 1n);
        }
  };
  add(g.conditions);
  for (const r of g.rules) add(r.conditions);
  b = [...s].sort(byValue);
  boundsCache.set(g, b);
  return b;
}

/** Every value of sorted `b` in (lo, hi]. */
function startsInside(b: readonly bigint[], lo: bigint, hi: bigint, out: Set<bigint>): void {
  let a = 0;
  let z = b.length;
  while (a < z) {
    const mid = (a + z) >> 1;
    if (b[mid]! <= lo) a = mid + 1;
    else z = mid;
  }
  for (let i = a; i < b.length && b[i]! <= hi; i++) out.add(b[i]!);
}

interface Tracking {
  dstIp: boolean;
  srcIp: boolean;
  dstPort: boolean;
  srcPort: boolean;
}

/** Port ranges the conditions put on the varying port fields; false when a condition on a fixed field misses. */
function portRanges(conds: VfpCondition[], p: Packet, t: Tracking, out: Interval[]): boolean {
  for (const c of conds) {
    if ((c.kind === 'dstPort' && t.dstPort) || (c.kind === 'srcPort' && t.srcPort)) {
      if (c.ports) for (const r of c.ports) out.push(r);
      continue;
    }
    if (checkCondition(c, p).result === 'miss') return false;
  }
  return true;
}

export class LayerCutter6 {
  /** Rules on the classes' paths that compare the source port. */
  srcPortRules = 0;
  private readonly layersSeen = new Set<string>();

  constructor(private readonly m: NodeModel) {}

  private layersOf(port: string, name: string): VfpLayer[] {
    const policy = this.m.vfp?.getPolicy(port);
    return policy ? policy.layers.filter((l) => layerName(l) === name) : [];
  }

  /** The cuts inside the cell (`atom` × `ports`) that the IPv6 groups of the layers its walks crossed make. */
  cuts(walks: readonly WalkResult[], exIp: string, exPort: number | undefined, atom: Interval6, ports: Interval | null): CellCuts6 {
    const ip = new Set<bigint>();
    const portCuts = new Set<number>();
    const done = new Set<string>();
    const wideIp = atom.lo < atom.hi;
    const widePort = !!ports && ports.lo < ports.hi;
    const same = (x: string | undefined) => x !== undefined && (x === exIp || canonIp(x) === exIp);
    for (const w of walks)
      for (const ws of [w, w.reply])
        for (const h of ws?.hops ?? []) {
          // A layer that let a reply through by the request's flow read none of its rules.
          if (!h.port || !h.direction || !h.layer || !h.before || h.flow) continue;
          const seenKey = `${h.port}\u0000${h.direction}\u0000${h.layer}`;
          if (!this.layersSeen.has(seenKey)) {
            this.layersSeen.add(seenKey);
            for (const l of this.layersOf(h.port, h.layer))
              for (const g of l.groups)
                if (sameDirection(g.direction, h.direction) && isV6Group(g)) this.srcPortRules += g.conditions.some((c) => c.kind === 'srcPort') ? g.rules.length : g.rules.filter((r) => r.conditions.some((c) => c.kind === 'srcPort')).length;
          }
          const b = h.before;
          const t: Tracking = { dstIp: same(b.dstIp), srcIp: same(b.srcIp), dstPort: exPort !== undefined && b.dstPort === exPort, srcPort: exPort !== undefined && b.srcPort === exPort };
          const ipVaries = wideIp && (t.dstIp || t.srcIp);
          const portVaries = widePort && (t.dstPort || t.srcPort);
          if (!ipVaries && !portVaries) continue;
          const key = `${seenKey}\u0000${+t.dstIp}${+t.srcIp}${+t.dstPort}${+t.srcPort}\u0000${b.dstIp}\u0000${b.srcIp}\u0000${b.dstPort}\u0000${b.srcPort}`;
          if (done.has(key)) continue;
          done.add(key);
          for (const l of this.layersOf(h.port, h.layer))
            for (const g of l.groups) {
              if (!sameDirection(g.direction, h.direction) || !isV6Group(g)) continue;
              if (ipVaries) startsInside(ipBounds6(g), atom.lo, atom.hi, ip);
              if (ip.size || !portVaries) continue;
              this.groupPortCuts(g, b, t, atom, ports!, portCuts);
            }
        }
    return { ip: [...ip].sort(byValue), ports: ip.size ? [] : [...portCuts].sort((a, b) => a - b) };
  }

  /** Port cuts of the rules of a group that can match some packet of the cell. */
  private groupPortCuts(g: VfpGroup, b: Packet, t: Tracking, atom: Interval6, ports: Interval, out: Set<number>): void {
    const ranges: Interval[] = [];
    if (!portRanges(g.conditions, b, t, ranges)) return;
    const groupRanges = ranges.length;
    // Candidates: the rules indexed under the one destination the layer saw (by its hex text, as the
    // walk's index keys IPv6), and every rule with no single destination.
    const c = compiledGroup(g);
    const dst = t.dstIp ? (atom.lo === atom.hi ? atom.lo.toString(16).padStart(32, '0') : undefined) : ipv6ToHex(b.dstIp);
    const exact = dst === undefined ? undefined : c.byDst.get(dst);
    const consider = (r: VfpRule) => {
      ranges.length = groupRanges;
      if (!portRanges(r.conditions, b, t, ranges)) return;
      for (const x of ranges) {
        if (x.lo > ports.lo && x.lo <= ports.hi) out.add(x.lo);
        if (x.hi + 1 > ports.lo && x.hi + 1 <= ports.hi) out.add(x.hi + 1);
      }
    };
    for (const r of exact ?? []) consider(r.rule);
    for (const r of c.others) consider(r.rule);
  }
}
