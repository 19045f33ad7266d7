// Destinations a packet leaving the node can never get an answer from, decided before the route
// table is read (audit of issue #25, A3 and A4): addresses no router forwards (RFC 6890), an
// address of this node's own pod subnet that no endpoint holds, and multicast groups (not modelled).
import { canonIp, ipToInt, inCidr } from '../ip.ts';
import { ipv6ToHex, prefixRange6 } from '../../../parsers/net/ip.ts';
import { detectPlatform, factsOf } from '../../platform/index.ts';
import { lookupRoute } from '../context.ts';
import type { Walk } from './state.ts';
import { gatewayUnused } from '../pod-gateways.ts';

interface Block {
  lo: number;
  hi: number;
  what: string;
  source: string;
}

const block = (cidr: string, what: string, source: string): Block => {
  const [ip = '', bits = '32'] = cidr.split('/');
  const lo = ipToInt(ip)!;
  const size = 2 ** (32 - Number(bits));
  return { lo, hi: lo + size - 1, what, source };
};

// RFC 6890 §2.2.2 tables, "Forwardable: False" (the most specific first). 169.254.0.0/16 is handled
// apart (a cloud's metadata service lives there).
const NEVER_FORWARDED: Block[] = [
  block('255.255.255.255/32', 'the limited broadcast address', 'RFC 6890 §2.2.2 (255.255.255.255/32, Forwardable: False); RFC 919 §7 (never forwarded by a gateway)'),
  block('0.0.0.0/8', '"this host on this network", valid only as a source', 'RFC 6890 §2.2.2 (0.0.0.0/8, Destination: False, Forwardable: False); RFC 1122 §3.2.1.3'),
  block('240.0.0.0/4', 'reserved for future use', 'RFC 6890 §2.2.2 (240.0.0.0/4, Forwardable: False)'),
];
const LINK_LOCAL = block('169.254.0.0/16', 'link-local', 'RFC 3927 §2.7 ("a router MUST NOT forward a packet with an IPv4 Link-Local destination address"); RFC 6890 §2.2.2 (Forwardable: False)');

/**
 * True when the walk ended here: an IPv4 destination no router forwards is dropped; a link-local one
 * only the default route covers is unknown (a cloud's metadata service at 169.254.169.254 is answered
 * by the host's platform, which the bundle cannot show; a route for it in the table is followed).
 */
export function neverForwarded(w: Walk): boolean {
  if (w.reply) return false;
  const n = ipToInt(w.packet.dstIp);
  if (n === undefined) return neverForwarded6(w);
  const b = NEVER_FORWARDED.find((x) => x.lo <= n && n <= x.hi);
  if (b) {
    const i = w.add({ at: 'host routing', kind: 'drop', action: 'not forwarded', effect: { kind: 'drop', why: 'no-route' }, note: `${w.packet.dstIp} is ${b.what}: no router forwards a packet to it (${b.source})` });
    w.end('dropped', `${w.packet.dstIp} is ${b.what}: it is never forwarded off the node`, i);
    return true;
  }
  if (LINK_LOCAL.lo <= n && n <= LINK_LOCAL.hi && w.ctx.routes && lookupRoute(w.ctx, w.packet.dstIp)?.bits === 0) {
    const i = w.add({ at: 'host routing', kind: 'note', action: 'link-local', inferred: true, note: `${w.packet.dstIp} is link-local and only the default route covers it: a router does not forward it (${LINK_LOCAL.source}); a cloud's metadata service at such an address is answered by the host's platform, which the bundle does not show` });
    w.end('unknown', `${w.packet.dstIp} is a link-local address: no router forwards it, and whether the host's platform answers it (a cloud metadata service) is not in the bundle`, i);
    return true;
  }
  return false;
}

interface Block6 {
  lo: string;
  hi: string;
  what: string;
  source: string;
}
const block6 = (cidr: string, what: string, source: string): Block6 => ({ ...prefixRange6(cidr)!, what, source });
const UNSPECIFIED6 = block6('::/128', 'the unspecified address, valid only as a source', 'RFC 4291 §2.5.2 ("must not be used as the destination address of IPv6 packets"); RFC 6890 §2.2.3 (::/128, Destination: False)');
const LINK_LOCAL6 = block6('fe80::/10', 'link-local', 'RFC 4291 §2.5.6 ("Routers must not forward any packets with Link-Local source or destination addresses to other links")');

/**
 * The IPv6 side of neverForwarded: the unspecified address is dropped; a link-local one is unknown,
 * since only a neighbour on the same link could answer and the bundle lists no endpoint's link-local
 * address (HNS endpoints report their global IPv6Address only).
 */
function neverForwarded6(w: Walk): boolean {
  const hex = ipv6ToHex(w.packet.dstIp);
  if (!hex) return false;
  if (UNSPECIFIED6.lo <= hex && hex <= UNSPECIFIED6.hi) {
    const i = w.add({ at: 'host routing', kind: 'drop', action: 'not forwarded', effect: { kind: 'drop', why: 'no-route' }, note: `${w.packet.dstIp} is ${UNSPECIFIED6.what} (${UNSPECIFIED6.source})` });
    w.end('dropped', `${w.packet.dstIp} is ${UNSPECIFIED6.what}: no packet is sent to it`, i);
    return true;
  }
  if (LINK_LOCAL6.lo <= hex && hex <= LINK_LOCAL6.hi) {
    const i = w.add({ at: 'host routing', kind: 'note', action: 'link-local', inferred: true, note: `${w.packet.dstIp} is ${LINK_LOCAL6.what}: no router forwards it off the link (${LINK_LOCAL6.source}); only a neighbour on the same vSwitch could answer, and the bundle lists no endpoint's link-local address` });
    w.end('unknown', `${w.packet.dstIp} is a link-local address: only a neighbour on the same link could answer it, and the bundle does not list link-local addresses (insufficient information)`, i);
    return true;
  }
  return false;
}

const MULTICAST_V4 = block('224.0.0.0/4', 'an IPv4 multicast group address', '224.0.0.0/4, RFC 5771 §3');
const LOCAL_CONTROL = block('224.0.0.0/24', 'the Local Network Control Block', '224.0.0.0/24, RFC 5771 §4: "not forwarded off link"; mDNS uses 224.0.0.251');
/** ff00::/8 (RFC 4291 §2.7): the first 16-bit group is written ffXX in full. */
const MULTICAST_V6 = /^ff[0-9a-f]{2}:/i;

/**
 * True when the walk ended here: a multicast destination (224.0.0.0/4, ff00::/8). What HNS and VFP do
 * with a pod's or the host's multicast packet — copy it to every port of the vSwitch, send it out of
 * the uplink, or drop it — is described by no source read: none of the rule types of vfpctrl's usage
 * text (semantics.ts) is about multicast, the Windows container networking docs (learn.microsoft.com,
 * virtualization/windowscontainers/container-networking/architecture) do not mention it, and
 * moby/moby#39504 reports multicast not working from a Windows container (nat network) without saying
 * where it stops; l2bridge and overlay may differ, and nothing says how. A group has no single host
 * that answers, so no reply is claimed either: the verdict is unknown, with the reason.
 */
export function multicast(w: Walk): boolean {
  const dst = w.packet.dstIp;
  if (w.reply) return false;
  const n = ipToInt(dst);
  const v4 = n !== undefined && MULTICAST_V4.lo <= n && n <= MULTICAST_V4.hi;
  if (!v4 && !(n === undefined && MULTICAST_V6.test(dst))) return false;
  const local = n !== undefined && LOCAL_CONTROL.lo <= n && n <= LOCAL_CONTROL.hi;
  const what = v4 ? `${MULTICAST_V4.what} (${MULTICAST_V4.source})` : 'an IPv6 multicast group address (ff00::/8, RFC 4291 §2.7)';
  const i = w.add({
    at: 'host routing',
    kind: 'note',
    action: 'multicast',
    inferred: true,
    note: `${dst} is ${what}${local ? `, in ${LOCAL_CONTROL.what}, which is never forwarded off the link (${LOCAL_CONTROL.source})` : ''}. Multicast is not modelled: no source says whether the vSwitch copies it to the other ports, sends it out of the uplink or drops it, and a group has no single host that answers`,
  });
  w.end('unknown', `multicast is not modelled: ${dst} is a multicast group address, and what the node does with a packet to a group (copied to other pods, sent out of the uplink, or dropped) is not documented in any source read; no reply is claimed`, i);
  return true;
}

/**
 * True when the walk ended here: an address of this node's own pod subnet that no endpoint (local or
 * remote) and no host address holds. The network plugins whose pod subnet is one node's own
 * (`crossNode.unit` "node pod CIDR": flannel, Antrea, OVN-Kubernetes — each node leases its own CIDR)
 * give that address to no other machine, so nothing answers it. What the vSwitch does with a frame for
 * an address no port has (an ARP nobody answers, a frame flooded to the uplink) is said by no source
 * we read: the verdict is unknown, never a delivered reply. Plugins whose pod addresses come from a
 * subnet shared with other nodes (Azure CNI, the EKS VPC CNI, Calico's IPAM blocks) are left to the
 * route table.
 */
export function freePodAddress(w: Walk): boolean {
  const { ctx } = w;
  const dst = w.packet.dstIp;
  if (w.reply) return false;
  // The pod network holding the address: an l2bridge or overlay network whose subnet holds a local
  // endpoint too (flannel's "External" network has a subnet of its own and no pod).
  let net;
  let subnet;
  for (const n of ctx.model.networks ?? []) {
    if (n.type !== 'l2bridge' && n.type !== 'overlay' && n.type !== 'l2tunnel') continue;
    const s = n.subnets.find((x) => inCidr(dst, x.prefix));
    if (s && [...ctx.local.keys()].some((ip) => inCidr(ip, s.prefix))) {
      net = n;
      subnet = s;
      break;
    }
  }
  // The tables are keyed by the canonical text (an IPv6 address has several spellings).
  const key = canonIp(dst) ?? dst;
  // The subnet's gateway is held unless no pod here uses it (flannel host-gw's .1: pod-gateways.ts).
  const gw = !!subnet?.gateway && canonIp(subnet.gateway) === key;
  if (!net || !subnet || (gw && !gatewayUnused(ctx, key)) || ctx.local.has(key) || ctx.remote.has(key) || ctx.hostIps.has(key) || ctx.vips.has(key)) return false;
  const facts = factsOf(detectPlatform(ctx.model).plugin);
  if (facts?.crossNode.unit !== 'node pod CIDR') return false;
  const i = w.add({
    at: 'vSwitch',
    kind: 'note',
    action: 'no endpoint',
    inferred: true,
    evidence: net.src,
    note: `${dst} is in this node's own pod subnet ${subnet.prefix} (HNS network ${net.name}), but no endpoint of this node holds it (${gw ? "the HNS network's gateway, which no pod of this node uses as its gateway" : "a deleted pod's address, or a pod's old one"}); with ${facts.label} no other node holds an address of it (${facts.crossNode.source}). What the vSwitch does with a packet for an address no port has is not documented in any source read`,
  });
  w.end('unknown', `no endpoint holds ${dst}, an address of this node's own pod subnet ${subnet.prefix}: nothing can answer it, and what the vSwitch does with the packet is not documented (insufficient information)`, i);
  return true;
}
