// The outcome of one walk as reach compares it: the verdict (the walk's, or "ambiguous" / "insufficient
// information" when the bundle cannot decide), the deciding rule, the rewrites, the egress, the reply's
// verdict, and a key that is equal for two walks exactly when they meet the same rules with the same
// effects. Addresses and ports that are the packet's own (its destination, which differs between the
// packets of one class) are replaced by placeholders in the key, so a class's packets compare equal.
import type { NodeModel } from '../../parsers/model/types.ts';
import { walkFlow } from '../walk/engine.ts';
import type { Flow, Verdict, WalkHop, WalkResult } from '../walk/types.ts';
import { canonIp, familyOf } from '../walk/ip.ts';
import { normaliser } from './placeholders.ts';

/**
 * The walk's verdicts, and three of reach's own: "ambiguous" and "insufficient information" where the
 * bundle cannot decide, and "delivered or forwarded" for a Service whose backends all get through, some
 * here and some on other nodes (which one a flow gets is VFP's hash: either way it gets through, so this
 * is not ambiguous — as GCP Connectivity Tests, which call a result ambiguous only when some traces
 * are delivered and others are not).
 */
export type ReachVerdict = Verdict | 'delivered or forwarded' | 'ambiguous' | 'insufficient information';

export interface BackendOutcome {
  dip: string;
  verdict: ReachVerdict;
  decidingRule: string | null;
}

export interface Outcome {
  verdict: ReachVerdict;
  /** The rule that decided (the deciding hop's rule), or null when no rule did (a route, the vSwitch, a missing port). */
  decidingRule: string | null;
  /** Where it was decided, in the walk's words ("pod … port X OUT layer Y", "host routing", …). */
  decidedAt: string;
  reason: string;
  rewrites: string[];
  nextHop?: string;
  encap?: string;
  reply: { verdict: ReachVerdict; decidingRule: string | null } | null;
  /** A Service VIP whose backends lead to different outcomes: each backend's, walked with it forced. */
  verdicts?: BackendOutcome[];
  /**
   * The verdict rests on an inference, not on what the bundle shows: the deciding step is marked
   * inferred (its words say why). A load balancer's choice of backend is not one: every backend is walked.
   */
  verdictInferred?: string;
  key: string;
}

const LB_ACTIONS = /DNAT|LB|load/i;

export function reachVerdict(w: WalkResult): ReachVerdict {
  if (w.hops.some((h) => h.ambiguous && !h.superseded)) return 'ambiguous';
  if (w.verdict === 'unknown' && w.dependsOnUnmodelled) return 'insufficient information';
  return w.verdict;
}

/**
 * The inference a walk's verdict rests on: its deciding hop marked inferred, in the hop's words (issue
 * #25: "dropped" on an inference is never shown as plain fact). A load balancer's hop is left out (the
 * inference there is which backend a hash picks, and reach walks every backend).
 */
export function verdictInference(w: WalkResult): string | undefined {
  const h: WalkHop | undefined = w.hops[w.deciding];
  if (!h?.inferred || h.alternatives?.length || h.effect?.kind === 'lb') return undefined;
  return `${h.at}: ${h.action}${h.note ? ` (${h.note})` : ''}`;
}

function decidingOf(w: WalkResult): { rule: string | null; at: string } {
  const h: WalkHop | undefined = w.hops[w.deciding];
  if (!h) return { rule: null, at: w.reason };
  const where = [h.port ? `port ${h.port.length > 12 ? h.port.slice(0, 8) + '…' : h.port}` : h.at, h.direction, h.layer && `layer ${h.layer}`].filter(Boolean).join(' ');
  return { rule: h.rule ?? null, at: where };
}

/** A value as Array.prototype.join writes it (undefined and null as nothing). */
const text = (x: string | number | null | undefined): string => (x === undefined || x === null ? '' : String(x));
/** `norm` of a value that may be a number or absent. */
const normed = (norm: (s: string | undefined) => string, x: string | number | undefined) => norm(x === undefined ? undefined : String(x));

/**
 * A hop's part of a walk's key: kind, port, direction, layer, group, rule, action, rewrite (its fields
 * comma-separated) and the flags, `|`-separated. Written out field by field rather than as arrays joined
 * (the same text: it is what a class's key costs, once per hop of every walk).
 */
function hopKey(h: WalkHop, norm: (s: string | undefined) => string): string {
  const r = h.rewrite;
  const rw = r
    ? normed(norm, r.srcIp) + ',' + normed(norm, r.dstIp) + ',' + normed(norm, r.srcPort) + ',' + normed(norm, r.dstPort) + ',' + normed(norm, r.srcMac) + ',' + normed(norm, r.dstMac) + ',' + normed(norm, r.encap && `${r.encap.type}>${r.encap.dstIp}/${r.encap.vni ?? ''}`)
    : '';
  return text(h.kind) + '|' + text(h.port) + '|' + text(h.direction) + '|' + text(h.layer) + '|' + text(h.group) + '|' + text(h.rule) + '|' + norm(h.action) + '|' + rw + '|' + (h.unmodelled ? 'U' : '') + '|' + (h.ambiguous ? 'A' : '') + '|' + (h.superseded ? 'S' : '') + '|' + (h.flow ? 'F' : '');
}

function walkKey(w: WalkResult, norm: (s: string | undefined) => string): string {
  return [w.verdict, w.deciding, verdictInference(w) === undefined ? '' : 'I', norm(w.egress.nextHop), norm(w.egress.interface), norm(w.egress.encapDst), ...w.hops.map((h) => hopKey(h, norm))].join('\n');
}

function rewritesOf(w: WalkResult): string[] {
  const out: string[] = [];
  for (const h of w.hops) {
    const r = h.rewrite;
    if (!r || h.superseded) continue;
    // An IPv6 address with a port in brackets (RFC 3986), so the port is not read as its last group.
    const at = (ip: string, port: number | undefined) => (port === undefined ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
    const parts = [r.dstIp && `destination ${at(r.dstIp, r.dstPort)}`, r.srcIp && `source ${at(r.srcIp, r.srcPort)}`, r.encap && `${r.encap.type} to ${r.encap.dstIp}${r.encap.vni !== undefined ? ` VNI ${r.encap.vni}` : ''}`].filter(Boolean);
    if (parts.length) out.push(`${h.action}: ${parts.join(', ')}${h.rule ? ` (${h.rule})` : ''}`);
  }
  return out;
}

/** A backend as a load balancer lists it (`10.0.0.5:8080`, `[fd00::5]:80`), without its port. */
const bare = (s: string, port?: number) => {
  const [host = '', ...rest] = s.split(':');
  if (rest.length === 1) return host;
  // The walk lists an IPv6 backend as `ip:port` without brackets (walk/actions.ts applyLb): the port is
  // the one the picked backend was rewritten to.
  const tail = port === undefined ? '' : `:${port}`;
  if (tail && !s.startsWith('[') && s.endsWith(tail) && familyOf(s.slice(0, -tail.length)) === 6) return s.slice(0, -tail.length);
  return s.replace(/^\[(.*)\](:\d+)?$/, '$1');
};

/** The backends a load balancer on the walk could pick (the picked one first), as DIP addresses. */
export function backendsOf(w: WalkResult): string[] {
  const h = w.hops.find((x) => x.alternatives?.length && (x.rewrite?.dstIp || LB_ACTIONS.test(x.action)) && !x.rewrite?.encap);
  if (!h) return [];
  const picked = h.rewrite?.dstIp ?? h.after?.l2Dst ?? h.after?.dstIp;
  return [...new Set([picked, ...h.alternatives!].filter((x): x is string => !!x).map((x) => bare(x, h.rewrite?.dstPort)))];
}

/** A request that was not let through has no reply (issue #25: `reply: { verdict } | null`): the walk's "no reply to walk" is null. */
function replyOf(w: WalkResult): Outcome['reply'] {
  if (!w.reply || (w.verdict !== 'delivered' && w.verdict !== 'forwarded')) return null;
  return { verdict: reachVerdict(w.reply), decidingRule: decidingOf(w.reply).rule };
}

/**
 * The walk forced to the backend it picked would be itself: it chose among backends once (the engine
 * reads a forced backend only where a load balancer chooses: walk/actions.ts applyLb, engine/
 * load-balance.ts), and the backend it picked is listed once there, so forcing it picks the same entry.
 * The forced walk differs only in the words of that hop's note and its "inferred" mark, which no
 * outcome reads (its key, verdicts, reply and layer cuts are the same).
 */
function pickedIsForced(w: WalkResult, picked: string | undefined): boolean {
  const choices = w.hops.filter((x) => x.alternatives?.length);
  const [c] = choices;
  if (choices.length !== 1 || !c || picked === undefined) return false;
  // The backend that hop picked (as backendsOf reads it) is the one named.
  const at = c.rewrite?.dstIp ?? c.after?.l2Dst ?? c.after?.dstIp;
  const p = canonIp(picked);
  return p !== undefined && at !== undefined && canonIp(bare(at)) === p && !c.alternatives!.some((a) => canonIp(bare(a, c.rewrite?.dstPort)) === p);
}

/**
 * Walks a flow (its reply too) and sums it up; a load balancer's other backends are walked as well
 * (the backend the walk picked is not walked again when that walk is provably the same: pickedIsForced;
 * `fresh` walks it again anyway, for tests). `keyed: false` leaves `key` empty: the matrix compares no
 * outcomes, and the key is most of what summing a walk up costs there.
 */
export function outcomeOf(m: NodeModel, flow: Flow, walk: (f: Flow) => WalkResult = (f) => walkFlow(m, f, { reply: true }), fresh = false, keyed = true): { outcome: Outcome; walk: WalkResult } {
  const w = walk(flow);
  const norm = normaliser(flow);
  const d = decidingOf(w);
  const reply = replyOf(w);
  const base: Outcome = {
    verdict: reachVerdict(w),
    decidingRule: d.rule,
    decidedAt: d.at,
    reason: w.reason,
    rewrites: rewritesOf(w),
    nextHop: w.egress.nextHop,
    encap: w.egress.encapDst,
    reply,
    key: '',
  };
  const inferred = verdictInference(w);
  if (inferred !== undefined) base.verdictInferred = inferred;
  const backends = flow.dip ? [] : backendsOf(w);
  if (backends.length > 1) {
    // The walk picks one backend by a hash of its own (VFP's is not in the bundle): the class's outcome is
    // every backend's, so it does not depend on which one the hash picked.
    const reuse = !fresh && pickedIsForced(w, backends[0]);
    const each = backends.map((dip, i) => {
      const bw = i === 0 && reuse ? w : walk({ ...flow, dip });
      return { dip, w: bw, key: keyed ? walkKey(bw, norm) + '\n~' + (bw.reply ? walkKey(bw.reply, norm) : '') : '' };
    });
    base.verdicts = each.map((e) => ({ dip: e.dip, verdict: reachVerdict(e.w), decidingRule: decidingOf(e.w).rule }));
    // The class's verdict is every backend's: it rests on an inference when one backend's does.
    const byInference = each.map((e) => verdictInference(e.w)).find((x) => x !== undefined);
    if (byInference !== undefined) base.verdictInferred = byInference;
    else delete base.verdictInferred;
    const distinct = new Set(base.verdicts.map((v) => v.verdict));
    const [only] = distinct;
    // The class's reply, when every backend's reply has the same verdict (else each backend's differs: null).
    const replies = new Set(each.map((e) => replyOf(e.w)?.verdict ?? null));
    const [reply] = replies;
    const sameReply = replies.size === 1 && reply !== undefined && reply !== null ? { verdict: reply, decidingRule: null } : null;
    const through = (v: ReachVerdict | null) => v === 'delivered' || v === 'forwarded';
    if (distinct.size === 1 && only !== undefined) {
      base.verdict = only;
      base.reply = sameReply;
    } else if ([...distinct].every(through) && [...replies].every(through)) {
      // Local backends deliver, remote ones forward, and every reply comes back: it gets through either way.
      const lb = w.hops.find((x) => x.alternatives?.length);
      base.verdict = 'delivered or forwarded';
      base.decidingRule = lb?.rule ?? null;
      base.decidedAt = 'load balancer (local and remote backends)';
      base.reply = sameReply;
    } else {
      // Which backend a given flow gets is VFP's hash, not in the bundle: the class as a whole is ambiguous.
      const lb = w.hops.find((x) => x.alternatives?.length);
      base.verdict = 'ambiguous';
      base.decidingRule = lb?.rule ?? null;
      base.decidedAt = 'load balancer (backends differ)';
      base.reply = null;
    }
    // Whichever backend the walk's own hash picked, the class's reply is summed up over every backend above.
    if (keyed) base.key = 'LB\n' + each.map((e) => `${e.dip}#${e.key}`).join('\n#\n');
    return { outcome: base, walk: w };
  }
  if (keyed) base.key = walkKey(w, norm) + '\n~' + (w.reply ? walkKey(w.reply, norm) : '');
  return { outcome: base, walk: w };
}
