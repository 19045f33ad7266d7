// Where the rules a class's walks actually met could tell its packets apart (issue #25 point 7).
// A cell is a destination address interval × a destination port interval of one protocol. Its example
// was walked (the request, its reply, every backend); the walk decided at the VFP layers it crossed and
// at the node's HNS, routing and address tables. The tables are cut up front (boundaries.ts); a layer's
// rules are read here, only for the cells whose walks crossed that layer, and only the rules that can
// still match there: a packet field that is the example's own destination address or port (unchanged
// so far, or the reply's source) varies over the cell, any other field is the same for every packet of
// the cell (a source, a fixed rewrite, a backend forced by the walk), so a rule whose condition on a
// fixed field misses cannot match any packet of the cell and a condition on a varying field cuts.
// When no cut falls inside the cell, every decision on the example's path is the same for every packet
// of the cell (by induction along the path), so the cell's outcome is the example's walk.
// Written once for both families (family.ts): only the groups of the packet's family are read (a layer's
// groups carry one family, `Type : IPv4`/`IPv6`; the walk takes only those: walk/walk-port.ts), with the
// family's address bounds and rule index key.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { VfpCondition, VfpGroup, VfpLayer, VfpRule } from '../../parsers/vfp/index.ts';
import type { Packet, WalkResult } from '../walk/types.ts';
import { conditionResult, compiledGroup } from '../walk/match.ts';
import { layerName } from '../walk/walk-port.ts';
import { byValue, type Interval } from './intervals.ts';
import type { AddrFamily } from './family.ts';

export interface CellCuts<A extends number | bigint> {
  /** Starts of new address pieces strictly inside the cell's address interval. */
  ip: A[];
  /** Starts of new port pieces strictly inside the cell's port interval (none when `ip` has some). */
  ports: number[];
}

const sameDirection = (d: string, dir: string) => d.trim().toUpperCase() === dir;

/** Rules of a group that compare the source port (the partition holds it at the walk's default). */
const srcPortCache = new WeakMap<VfpGroup, number>();
function srcPortRulesOf(g: VfpGroup): number {
  let n = srcPortCache.get(g);
  if (n === undefined) {
    const grp = g.conditions.some((c) => c.kind === 'srcPort');
    n = grp ? g.rules.length : g.rules.filter((r) => r.conditions.some((c) => c.kind === 'srcPort')).length;
    srcPortCache.set(g, n);
  }
  return n;
}

/** Pushes every value of sorted `b` in (lo, hi]. */
function startsInside<A extends number | bigint>(b: ArrayLike<A>, lo: A, hi: A, out: Set<A>): void {
  let a = 0;
  let z = b.length;
  while (a < z) {
    const mid = (a + z) >> 1;
    const at = b[mid];
    if (at !== undefined && at <= lo) a = mid + 1;
    else z = mid;
  }
  for (let i = a; i < b.length; i++) {
    const v = b[i];
    if (v === undefined || v > hi) break;
    out.add(v);
  }
}

interface Tracking {
  dstIp: boolean;
  srcIp: boolean;
  dstPort: boolean;
  srcPort: boolean;
}

/**
 * Port ranges a rule's (or group's) conditions put on the varying port fields, or null when a
 * condition on a fixed field misses (the rule matches no packet of the cell).
 */
function portRanges(conds: VfpCondition[], p: Packet, t: Tracking, out: Interval[]): boolean {
  for (const c of conds) {
    if ((c.kind === 'dstPort' && t.dstPort) || (c.kind === 'srcPort' && t.srcPort)) {
      if (c.ports) for (const r of c.ports) out.push(r);
      continue;
    }
    // Address conditions are constant over the cell too: no address cut falls inside it (checked first).
    if (conditionResult(c, p) === 'miss') return false;
  }
  return true;
}

/** The groups of one direction and family of a port's layers of one name: what a hop at that layer read. */
interface LayerView {
  groups: VfpGroup[];
}

export class LayerCutter<A extends number | bigint> {
  /** Rules on the classes' paths that compare the source port. */
  srcPortRules = 0;
  /** Layers whose rules were read (port, direction, layer). */
  layersRead = 0;

  constructor(
    private readonly m: NodeModel,
    private readonly fam: AddrFamily<A>,
  ) {}

  /** A port's layers of one name, looked up once per partition (the model does not change during it). */
  private readonly layersByName = new Map<string, VfpLayer[]>();
  /**
   * Port → direction → layer name → the groups a hop there read, built (and its source-port rules
   * counted) the first time a hop names them. Keyed by the hop's own strings, nested, so a hop costs
   * three lookups of strings whose hashes are kept, not a key built and hashed per hop.
   */
  private readonly views = new Map<string, Map<string, Map<string, LayerView>>>();

  private layersOf(port: string, name: string): VfpLayer[] {
    const key = `${port}\u0000${name}`;
    let ls = this.layersByName.get(key);
    if (!ls) {
      const policy = this.m.vfp?.getPolicy(port);
      ls = policy ? policy.layers.filter((l) => layerName(l) === name) : [];
      this.layersByName.set(key, ls);
    }
    return ls;
  }

  private viewOf(port: string, dir: string, layer: string): LayerView {
    let byDir = this.views.get(port);
    if (!byDir) this.views.set(port, (byDir = new Map()));
    let byLayer = byDir.get(dir);
    if (!byLayer) byDir.set(dir, (byLayer = new Map()));
    let v = byLayer.get(layer);
    if (!v) {
      const groups: VfpGroup[] = [];
      for (const l of this.layersOf(port, layer)) for (const g of l.groups) if (sameDirection(g.direction, dir) && this.fam.isGroup(g)) groups.push(g);
      this.layersRead++;
      for (const g of groups) this.srcPortRules += srcPortRulesOf(g);
      v = { groups };
      byLayer.set(layer, v);
    }
    return v;
  }

  /** The cuts inside the cell (`atom` × `ports`) that the layers its walks crossed make. */
  cuts(walks: readonly WalkResult[], exIp: string, exPort: number | undefined, atom: Interval<A>, ports: Interval | null): CellCuts<A> {
    const fam = this.fam;
    const ip = new Set<A>();
    const portCuts = new Set<number>();
    const done = new Set<string>();
    const wideIp = atom.lo < atom.hi;
    const widePort = !!ports && ports.lo < ports.hi;
    for (const w of walks)
      for (const ws of [w, w.reply])
        for (const h of ws?.hops ?? []) {
          // A layer that let a reply through by the request's flow read none of its rules.
          if (!h.port || !h.direction || !h.layer || !h.before || h.flow) continue;
          const view = this.viewOf(h.port, h.direction, h.layer);
          const b = h.before;
          const t: Tracking = {
            dstIp: fam.same(b.dstIp, exIp),
            srcIp: fam.same(b.srcIp, exIp),
            dstPort: exPort !== undefined && b.dstPort === exPort,
            srcPort: exPort !== undefined && b.srcPort === exPort,
          };
          const ipVaries = wideIp && (t.dstIp || t.srcIp);
          const portVaries = widePort && (t.dstPort || t.srcPort);
          // Every field this layer compares is the same for every packet of the cell: it decides alike.
          if (!ipVaries && !portVaries) continue;
          const key = `${h.port}\u0000${h.direction}\u0000${h.layer}\u0000${+t.dstIp}${+t.srcIp}${+t.dstPort}${+t.srcPort}\u0000${b.dstIp}\u0000${b.srcIp}\u0000${b.dstPort}\u0000${b.srcPort}`;
          if (done.has(key)) continue;
          done.add(key);
          for (const g of view.groups) {
            if (ipVaries) startsInside(fam.groupBounds(g), atom.lo, atom.hi, ip);
            if (ip.size || !portVaries) continue;
            this.groupPortCuts(g, b, t, atom, ports!, portCuts);
          }
        }
    return { ip: [...ip].sort(byValue), ports: ip.size ? [] : [...portCuts].sort((a, b) => a - b) };
  }

  /** Port cuts of the rules of a group that can match some packet of the cell. */
  private groupPortCuts(g: VfpGroup, b: Packet, t: Tracking, atom: Interval<A>, ports: Interval, out: Set<number>): void {
    const ranges: Interval[] = [];
    if (!portRanges(g.conditions, b, t, ranges)) return;
    const groupRanges = ranges.length;
    // Candidates: the rules indexed under the destination the layer saw (the cell's single address, or
    // the fixed address it was rewritten to), and every rule with no single destination. A single-address
    // rule inside a wider cell would have cut its addresses already.
    const c = compiledGroup(g);
    const dst = t.dstIp ? (atom.lo === atom.hi ? this.fam.indexKey(atom.lo) : undefined) : this.fam.indexKeyOf(b.dstIp);
    const exact = dst === undefined ? undefined : c.byDst.get(dst);
    const split = dst === undefined || groupRanges ? undefined : c.byDstPort.get(dst);
    if (split) {
      // A rule whose only port condition is one destination port p cuts the cell's ports only at p and
      // p + 1, so only when p is in [lo, hi] and the destination port varies over the cell (else it has
      // no range on a varying field): the other rules of that list cut nothing, and are not read.
      for (const r of split.portRest) considerRule(r.rule, b, t, ranges, groupRanges, ports, out);
      if (t.dstPort) {
        if (ports.hi - ports.lo < split.onlyPort.size) {
          for (let p = ports.lo; p <= ports.hi; p++) for (const r of split.onlyPort.get(p) ?? []) considerRule(r.rule, b, t, ranges, groupRanges, ports, out);
        } else for (const [p, rs] of split.onlyPort) if (p >= ports.lo && p <= ports.hi) for (const r of rs) considerRule(r.rule, b, t, ranges, groupRanges, ports, out);
      }
    } else for (const r of exact ?? []) considerRule(r.rule, b, t, ranges, groupRanges, ports, out);
    for (const r of c.others) considerRule(r.rule, b, t, ranges, groupRanges, ports, out);
  }
}

/** The cuts one rule of a group makes inside the cell's ports (`ranges` holds the group's own first). */
function considerRule(r: VfpRule, b: Packet, t: Tracking, ranges: Interval[], groupRanges: number, ports: Interval, out: Set<number>): void {
  ranges.length = groupRanges;
  if (!portRanges(r.conditions, b, t, ranges)) return;
  for (const x of ranges) {
    if (x.lo > ports.lo && x.lo <= ports.hi) out.add(x.lo);
    if (x.hi + 1 > ports.lo && x.hi + 1 <= ports.hi) out.add(x.hi + 1);
  }
}
