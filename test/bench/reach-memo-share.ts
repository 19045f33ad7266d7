// How much of one source's walks a memo of the walk after a load balancer's DNAT could share (issue #25
// point 7; analysis/reach/README.md "Speed"): every walk of the big node's first source is timed and its
// hops counted — the request's hops after its DNAT hop, and the reply's hops before the first hop that
// turns the backend back into the VIP (the part that is the same for every VIP with that backend and
// port; from that hop on the reply differs per VIP). `node --import tsx test/bench/reach-memo-share.ts DIR`.
import { loadBundle } from '../../services/bundle/load.ts';
import { defaultSources, reachFrom } from '../../analysis/reach/index.ts';
import { walkFlow } from '../../analysis/walk/engine.ts';
import { sharedRulesModel } from '../../analysis/reach/shared-rules.ts';
import type { Flow, WalkResult } from '../../analysis/walk/types.ts';

const model = await loadBundle(process.argv[2]!);
if (model.vfp) model.vfp.cacheRules = Infinity;
const src = defaultSources(model)[0]!.ip;
// Every port read first, so a walk's time is its own.
reachFrom(model, src);
const m = sharedRulesModel(model);
const acc = { lb: { walks: 0, ms: 0, hops: 0, after: 0, replyHops: 0, replyShared: 0 }, other: { walks: 0, ms: 0, hops: 0, replyHops: 0 } };
const keys = new Map<string, number>();
const walk = (f: Flow): WalkResult => {
  const t0 = performance.now();
  const w = walkFlow(m, f, { reply: true });
  const ms = performance.now() - t0;
  const lbAt = w.hops.findIndex((h) => h.effect?.kind === 'lb' && !h.superseded);
  const rh = w.reply?.hops ?? [];
  if (lbAt < 0) {
    acc.other.walks++;
    acc.other.ms += ms;
    acc.other.hops += w.hops.length;
    acc.other.replyHops += rh.length;
    return w;
  }
  const a = acc.lb;
  a.walks++;
  a.ms += ms;
  a.hops += w.hops.length;
  a.after += w.hops.length - lbAt - 1;
  a.replyHops += rh.length;
  // The reply is the same for every VIP up to the hop that writes the VIP back (the LB's flow).
  const vip = w.hops[lbAt]!.before?.dstIp;
  const back = rh.findIndex((h) => h.after?.srcIp === vip);
  a.replyShared += back < 0 ? rh.length : back;
  // Walks whose state after the DNAT repeats: the packet after it, and the source port.
  const p = w.hops[lbAt]!.after;
  const k = `${p?.srcIp}|${p?.srcPort}|${p?.dstIp}|${p?.dstPort}|${p?.proto}`;
  keys.set(k, (keys.get(k) ?? 0) + 1);
  return w;
};
const c0 = process.cpuUsage();
const r = reachFrom(model, defaultSources(model)[1]!.ip, { walk });
const c = process.cpuUsage(c0);
const round = (x: number) => Math.round(x);
process.stdout.write(
  JSON.stringify({
    cpuMs: round((c.user + c.system) / 1000),
    walks: r.walks,
    lb: { ...acc.lb, ms: round(acc.lb.ms) },
    other: { ...acc.other, ms: round(acc.other.ms) },
    distinctAfterDnat: keys.size,
  }) + '\n',
);
