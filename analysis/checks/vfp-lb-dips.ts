// The DIPs VFP load-balances a VIP:port/proto to, read from the LB rules of the pod ports (every pod
// port carries the same list): what a claim about a stale backend must be checked against — a stale
// DIP that HNS still lists but VFP no longer holds black-holes nothing.
import type { CheckContext } from './context.ts';
import { lbRuleKeys } from './lb-vfp.ts';

export interface VfpLbDips {
  ips: string[];
  /** The pod port whose rule was read. */
  port: string;
  src: { file: string; line: number };
}

/** Pod ports read at most to find the LB rules. */
const MAX_PORTS = 50;
const cache = new WeakMap<CheckContext, Map<string, VfpLbDips>>();

function index(ctx: CheckContext): Map<string, VfpLbDips> {
  let idx = cache.get(ctx);
  if (idx) return idx;
  idx = new Map();
  for (const e of ctx.localPods.slice(0, MAX_PORTS)) {
    const p = ctx.portOf(e);
    if (!p?.policy) continue;
    // By name (ctx.rules): pod ports share their LB rules, so the second port costs nothing.
    for (const rule of ctx.rules(p)) if (rule.dipRanges.length) for (const k of lbRuleKeys(rule)) if (!idx.has(k)) idx.set(k, { ips: rule.dipRanges.map((d) => d.ip), port: p!.name, src: rule.src });
    // The first pod port with LB rules speaks for all of them.
    if (idx.size) break;
  }
  cache.set(ctx, idx);
  return idx;
}

/** The VFP DIPs of `vip:port/proto`, or undefined when the bundle has no LB rule for it on a pod port. */
export function vfpLbDips(ctx: CheckContext, vip: string, port: number, proto: number): VfpLbDips | undefined {
  if (!ctx.m.vfp) return undefined;
  return index(ctx).get(`${vip}|${port}|${proto}`);
}
