// Whether the HNS gateway of a pod subnet is one this node's pods use (engine/nowhere.ts asks, before it
// leaves the subnet's gateway to the route table).
// flannel host-gw (pkg/backend/hostgw/hostgw_windows.go) creates the L2Bridge network with gateway .1
// (`expectedGatewayAddress`) and gives its pods the bridge endpoint .2 (`expectedPodGatewayAddress`, the
// "<network>_ep" endpoint in the host compartment) as their gateway: nothing on the node holds .1. On
// flannel VXLAN the .1 is the distributed router the pods do use. So the subnet's gateway counts as held
// only when a pod's adapter (ipconfig) names it as its default gateway, or when the bundle has no
// adapter to tell (then it is left to the route table, as before).
import type { WalkContext } from './context.ts';
import { canonIp } from './ip.ts';

const memo = new WeakMap<WalkContext, Set<string> | null>();

/** The default gateways of this node's pods' adapters; null when no pod adapter is in the bundle. */
function podGateways(ctx: WalkContext): Set<string> | null {
  let out = memo.get(ctx);
  if (out !== undefined) return out;
  let seen = false;
  const set = new Set<string>();
  for (const ep of ctx.local.values()) {
    const a = ctx.adapterOf.get(ep.id);
    if (!a || a.compartment.id === 1) continue;
    seen = true;
    for (const g of a.adapter.gateways) set.add(canonIp(g) ?? g);
  }
  out = seen ? set : null;
  memo.set(ctx, out);
  return out;
}

/** The subnet's gateway address is no pod's gateway here (and the bundle shows the pods' gateways). */
export function gatewayUnused(ctx: WalkContext, gateway: string): boolean {
  const gws = podGateways(ctx);
  return gws !== null && !gws.has(canonIp(gateway) ?? gateway);
}
