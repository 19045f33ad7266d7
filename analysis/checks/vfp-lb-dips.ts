// The DIPs VFP load-balances a VIP:port/proto to, read from the LB rules of the pod ports (every pod
// port carries the same list): what a claim about a stale backend must be checked against — a stale
// DIP that HNS still lists but VFP no longer holds black-holes nothing.
import type { CheckContext } from './context.ts';
import { lbRuleKeys } from './lb-vfp.ts';
import type { VfpRule } from '../../parsers/vfp/types.ts';

export interface VfpLbDips {
  ips: string[];
  /** The pod port whose rule was read. */
  port: string;
  src: { file: string; line: number };
}

/** Pod ports read at most to find the LB rules. */
const MAX_PORTS = 50;
interface Index {
  byKey: Map<string, VfpLbDips>;
  /** Rules naming too many VIP × port × protocol combinations to spell out: asked by membership. */
  wide: { rule: VfpRule; dips: VfpLbDips }[];
}
const cache = new WeakMap<CheckContext, Index>();

function index(ctx: CheckContext): Index {
  let idx = cache.get(ctx);
  if (idx) return idx;
  idx = { byKey: new Map(), wide: [] };
  for (const e of ctx.localPods.slice(0, MAX_PORTS)) {
    const p = ctx.portOf(e);
    if (!p?.policy) continue;
    // By name (ctx.rules): pod ports share their LB rules, so the second port costs nothing.
    for (const rule of ctx.rules(p)) {
      if (!rule.dipRanges.length) continue;
      const dips = { ips: rule.dipRanges.map((d) => d.ip), port: p.name, src: rule.src };
      const { keys, capped } = lbRuleKeys(rule);
      if (capped) idx.wide.push({ rule, dips });
      for (const k of keys) if (!idx.byKey.has(k)) idx.byKey.set(k, dips);
    }
    // The first pod port with LB rules speaks for all of them.
    if (idx.byKey.size || idx.wide.length) break;
  }
  cache.set(ctx, idx);
  return idx;
}

/** The VFP DIPs of `vip:port/proto`, or undefined when the bundle has no LB rule for it on a pod port. */
export function vfpLbDips(ctx: CheckContext, vip: string, port: number, proto: number): VfpLbDips | undefined {
  if (!ctx.m.vfp) return undefined;
  const key = `${vip}|${port}|${proto}`;
  const idx = index(ctx);
  const hit = idx.byKey.get(key);
  if (hit) return hit;
  const asked = new Map([[key, true]]);
  return idx.wide.find((w) => lbRuleKeys(w.rule, asked).keys.length)?.dips;
}
