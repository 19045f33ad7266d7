// Differential reachability between two bundles (issue #25 point 5): each source of bundle A (its pods
// and the host) is matched in bundle B by Kubernetes name where a snapshot has it, else by address;
// both partitions are overlaid (the union of their boundaries) and every region whose verdict,
// deciding rule or reply verdict differs is listed, adjacent regions with the same change merged.
// Destinations are compared by address: a pod that came back with another address shows as two changes.
import type { NodeModel } from '../../parsers/model/types.ts';
import { intToIp, ipToInt } from '../walk/ip.ts';
import { defaultSources, type Source } from './matrix.ts';
import { reachFrom, type ReachClass, type ReachFrom, type ReachOptions, type ReachProto } from './partition.ts';
import type { ReachVerdict } from './outcome.ts';

export interface Side {
  verdict: ReachVerdict;
  decidingRule: string | null;
  reply: ReachVerdict | null;
}

export interface ReachChange {
  from: string;
  fromName?: string;
  /** The source's address in bundle B when it differs (matched by name). */
  fromAfter?: string;
  dst: [string, string];
  ports: [number, number] | null;
  proto: ReachProto;
  before: Side;
  after: Side;
}

export interface ReachDiff {
  changed: ReachChange[];
  /** Sources only one bundle has. */
  onlyBefore: Source[];
  onlyAfter: Source[];
  budgetHit: boolean;
}

const side = (c: ReachClass): Side => ({ verdict: c.verdict, decidingRule: c.decidingRule, reply: c.reply?.verdict ?? null });
const sameSide = (a: Side, b: Side) => a.verdict === b.verdict && a.decidingRule === b.decidingRule && a.reply === b.reply;

interface Row {
  lo: number;
  hi: number;
  classes: ReachClass[];
}

/** Classes of one protocol grouped by address range (a range's classes split its ports), in address order. */
function rows(r: ReachFrom, proto: ReachProto): Row[] {
  const out: Row[] = [];
  for (const c of r.classes) {
    if (c.proto !== proto) continue;
    const lo = ipToInt(c.dst[0])!;
    const last = out[out.length - 1];
    if (last && last.lo === lo) last.classes.push(c);
    else out.push({ lo, hi: ipToInt(c.dst[1])!, classes: [c] });
  }
  return out.sort((a, b) => a.lo - b.lo);
}

function portCuts(a: ReachClass[], b: ReachClass[]): ([number, number] | null)[] {
  const [first] = a;
  if (first?.ports === null) return [null];
  const starts = new Set<number>();
  for (const c of [...a, ...b]) if (c.ports) starts.add(c.ports[0]);
  const s = [...starts].sort((x, y) => x - y);
  return s.map((lo, i) => {
    const next = s[i + 1];
    return [lo, next !== undefined ? next - 1 : 65535] as [number, number];
  });
}

const holding = (cs: ReachClass[], port: number | undefined) => cs.find((c) => c.ports === null || (port !== undefined && c.ports[0] <= port && port <= c.ports[1]))!;

/** The changes between two partitions of one source. */
export function diffPartitions(a: ReachFrom, b: ReachFrom, from: Source, fromAfter?: string): ReachChange[] {
  const out: ReachChange[] = [];
  for (const proto of ['tcp', 'udp', 'icmp'] as ReachProto[]) {
    const ra = rows(a, proto);
    const rb = rows(b, proto);
    if (!ra.length || !rb.length) continue;
    let i = 0;
    let j = 0;
    let x = ra[i];
    let y = rb[j];
    let at = 0;
    // Open changes of the previous address region, by ports, to extend when the next region repeats them.
    let open = new Map<string, ReachChange>();
    while (x && y) {
      const hi = Math.min(x.hi, y.hi);
      const next = new Map<string, ReachChange>();
      for (const ports of portCuts(x.classes, y.classes)) {
        const ca = holding(x.classes, ports?.[0]);
        const cb = holding(y.classes, ports?.[0]);
        if (!ca || !cb) continue;
        const before = side(ca);
        const after = side(cb);
        if (sameSide(before, after)) continue;
        const k = `${ports?.join('-') ?? ''}|${JSON.stringify(before)}|${JSON.stringify(after)}`;
        const prev = open.get(k);
        if (prev && ipToInt(prev.dst[1])! + 1 === at) {
          prev.dst = [prev.dst[0], intToIp(hi)];
          next.set(k, prev);
        } else {
          const c: ReachChange = { from: from.ip, ...(from.name ? { fromName: from.name } : {}), ...(fromAfter && fromAfter !== from.ip ? { fromAfter } : {}), dst: [intToIp(at), intToIp(hi)], ports, proto, before, after };
          out.push(c);
          next.set(k, c);
        }
      }
      open = next;
      if (hi === 0xffffffff) break;
      at = hi + 1;
      if (x.hi < at) x = ra[++i];
      if (y.hi < at) y = rb[++j];
    }
  }
  return out;
}

export function diffReach(a: NodeModel, b: NodeModel, o: ReachOptions = {}): ReachDiff {
  const sa = defaultSources(a);
  const sb = defaultSources(b);
  const key = (s: Source) => (s.name ? `name:${s.name}` : `ip:${s.ip}`);
  const byKey = new Map(sb.map((s) => [key(s), s]));
  const byIp = new Map(sb.map((s) => [s.ip, s]));
  const used = new Set<Source>();
  const changed: ReachChange[] = [];
  const onlyBefore: Source[] = [];
  let budgetHit = false;
  for (const s of sa) {
    const t = byKey.get(key(s)) ?? (s.name ? undefined : byIp.get(s.ip));
    if (!t) {
      onlyBefore.push(s);
      continue;
    }
    used.add(t);
    const ra = reachFrom(a, s.ip, o);
    const rb = reachFrom(b, t.ip, o);
    budgetHit ||= ra.budget.hit || rb.budget.hit;
    changed.push(...diffPartitions(ra, rb, s, t.ip));
  }
  return { changed, onlyBefore, onlyAfter: sb.filter((s) => !used.has(s)), budgetHit };
}
