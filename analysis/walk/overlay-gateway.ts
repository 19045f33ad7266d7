// A pod's packet addressed to its own gateway on an overlay network (engine/routing.ts asks, before the
// route table). Flannel VXLAN (flannel-io/flannel pkg/backend/vxlan/device_windows.go) and Calico VXLAN
// (projectcalico/calico cni-plugin/pkg/dataplane/windows/dataplane_windows.go) give the pods the HNS
// subnet's gateway (.1): the network's distributed router, a virtual address that no endpoint, adapter
// or host holds. The host's route table is not where such a packet goes — it never leaves the node by
// the node's default gateway with the pod's own address, which is what the walk said before.
// Whether the distributed router answers a packet addressed to it no source read says: flannel-io/
// flannel#833 shows a VXLAN node whose pods could not ping it, on a node broken in other ways too, so
// it settles nothing. (ovn-kubernetes#683, once cited here, is about pings from a Windows host to an
// OVS bridge in 2019, not a pod and HNS's router.) So: unknown, insufficient information, marked
// inferred; no answer is claimed.
// (test/unit/trial/overlay-pod-gateway.test.ts)
import { canonIp, inCidr } from './ip.ts';
import { gatewayUnused } from './pod-gateways.ts';
import type { Walk } from './engine/state.ts';

export function overlayPodGateway(w: Walk): boolean {
  const { ctx } = w;
  if (w.reply) return false;
  const dst = w.packet.dstIp;
  const key = canonIp(dst) ?? dst;
  const src = canonIp(w.packet.srcIp) ?? w.packet.srcIp;
  // Only a pod of this node on that network sends to its gateway as an on-link neighbour.
  const from = ctx.local.get(src);
  if (!from) return false;
  if (ctx.local.has(key) || ctx.remote.has(key) || ctx.hostIps.has(key) || ctx.vips.has(key)) return false;
  for (const n of ctx.model.networks ?? []) {
    if (n.type !== 'overlay') continue;
    const s = n.subnets.find((x) => !!x.gateway && (canonIp(x.gateway) ?? x.gateway) === key && inCidr(src, x.prefix));
    if (!s || gatewayUnused(ctx, key)) continue;
    const i = w.add({
      at: 'vSwitch',
      kind: 'note',
      action: 'distributed router',
      inferred: true,
      evidence: n.src,
      note: `${dst} is the gateway of ${s.prefix} (HNS network ${n.name}, type Overlay): the network's distributed router, a virtual address no endpoint or host holds. The packet does not leave by the node's route table. Whether the router answers a packet addressed to it is not documented in any source read`,
    });
    w.end('unknown', `${dst} is this pod's gateway, HNS network ${n.name}'s distributed router (virtual): whether it answers a packet addressed to it is not documented (insufficient information)`, i);
    return true;
  }
  return false;
}
