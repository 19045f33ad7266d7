// The DIPs VFP load-balances a VIP:port/proto to, read from the LB rules of the pod ports (every pod
// port carries the same list): what a claim about a stale backend must be checked against — a stale
// DIP that HNS still lists but VFP no longer holds black-holes nothing. A NodePort's rule lies on the
// host vNIC port instead (`LB_HOST_<tag>_<node IP>_<node port>_<target port>_<proto>`, the name
// microsoft/SDN rulecounters.ps1 lists; tools/gen/FORMATS.md), keyed by a node address and the node port.
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

const hostCache = new WeakMap<CheckContext, Map<string, { vip: string; dips: VfpLbDips }[]>>();

/** port|proto → the LB rules of the host vNIC ports (and the uplink) with the VIP each answers for. */
function hostIndex(ctx: CheckContext): Map<string, { vip: string; dips: VfpLbDips }[]> {
  let idx = hostCache.get(ctx);
  if (idx) return idx;
  idx = new Map();
  for (const p of (ctx.m.ports ?? []).filter((x) => (x.role === 'host-vnic' || x.role === 'external') && x.policy).slice(0, MAX_PORTS)) {
    for (const rule of ctx.rules(p)) {
      if (!rule.dipRanges.length) continue;
      const dips = { ips: rule.dipRanges.map((d) => d.ip), port: p.name, src: rule.src };
      // A real rule names one VIP, port and protocol; a hostile one naming more is not spelled out here.
      const { keys, capped } = lbRuleKeys(rule);
      if (capped) continue;
      for (const k of keys) {
        const [vip = '', port, proto] = k.split('|');
        const pk = `${port}|${proto}`;
        idx.set(pk, [...(idx.get(pk) ?? []), { vip, dips }]);
      }
    }
  }
  hostCache.set(ctx, idx);
  return idx;
}

/**
 * The VFP DIPs of a NodePort load balancer: the LB rule on a host port for the node port and protocol
 * whose VIP is one of the load balancer's VIPs or an address of this host. Undefined when the bundle
 * has no such rule (or no VFP dump).
 */
export function vfpNodePortDips(ctx: CheckContext, nodePort: number, proto: number, lbVips: readonly string[]): VfpLbDips | undefined {
  if (!ctx.m.vfp) return undefined;
  const hits = hostIndex(ctx).get(`${nodePort}|${proto}`) ?? [];
  return (hits.find((h) => lbVips.includes(h.vip)) ?? hits.find((h) => ctx.tc.hostIps.has(h.vip)))?.dips;
}
