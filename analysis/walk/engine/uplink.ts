// Stage 4, the uplink: a packet arriving from another node (the uplink's OUT groups, then VXLAN
// decapsulation), and one leaving encapsulated to a provider address.
import type { Packet } from '../types.ts';
import { lookupRoute } from '../context.ts';
import { walkPort, type WalkOptions } from '../walk-port.ts';
import { canonIp, familyOf } from '../ip.ts';
import { short, Walk, portCtx } from './state.ts';

/**
 * A packet another node sent, as it reaches this node's uplink: the uplink's rules (the port's OUT
 * groups: traffic from the wire), then, when it is VXLAN-encapsulated, the decapsulation — which only
 * takes a packet addressed to this node's provider address, with this network's VNI and its
 * distributed router's MAC as the inner destination ("Windows overlay decap works at L2 and so it needs
 * the correct destination MAC for the remote host to work": flannel-io/flannel
 * pkg/backend/vxlan/vxlan_windows.go). False when the walk ended here.
 */
export function arriveOnUplink(w: Walk, arrive: NonNullable<WalkOptions['arrive']>, opts: WalkOptions, ephemeralNote: string | undefined): boolean {
  const { ctx } = w;
  w.sourceKind = 'outside';
  w.packet = { ...arrive.packet, encap: arrive.packet.encap ? { ...arrive.packet.encap } : undefined };
  if (!w.packet.encap) delete w.packet.encap;
  w.sourcePort = ctx.extPort?.name.toLowerCase();
  const p = w.packet;
  const enc = p.encap;
  const from = arrive.from ? `node ${arrive.from}` : 'another node';
  w.add({
    at: `${p.srcIp} from ${from}`,
    kind: 'source',
    action: w.reply ? 'answer arrives on the uplink' : 'arrive on the uplink',
    note:
      [
        enc
          ? `${enc.type} from ${enc.srcIp ?? '?'} to ${enc.dstIp}${enc.vni !== undefined ? `, VNI ${enc.vni}` : ''}${enc.dstMac ? `, inner destination MAC ${enc.dstMac}` : ''}; inner ${p.srcIp} → ${p.dstIp}`
          : `routed here by ${from}${p.dstMac ? ` to MAC ${p.dstMac}` : ''}`,
        ephemeralNote,
      ]
        .filter(Boolean)
        .join('; ') || undefined,
    after: { ...p },
    nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
  });
  if (!walkUplink(w, 'OUT', opts)) return false;
  const e = w.packet.encap;
  if (!e) return true;
  const net = ctx.podNetwork;
  const myPa = canonIp(net?.providerAddress) ?? ctx.nodeIp;
  const myVni = net?.subnets.find((s) => s.vsid !== undefined)?.vsid;
  const myMac = net?.drMac?.replace(/:/g, '-').toUpperCase();
  const theirMac = e.dstMac?.replace(/:/g, '-').toUpperCase();
  const dst = canonIp(e.dstIp) ?? e.dstIp;
  const refuse = (why: string, reason: string) => {
    const i = w.add({ at: 'uplink', kind: 'drop', action: 'not decapsulated', effect: { kind: 'drop', why: 'not-decapsulated' }, inferred: true, evidence: net?.src, note: why, nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [] });
    w.end('dropped', reason, i);
    return false;
  };
  if (!ctx.hostIps.has(dst) && dst !== myPa) return refuse(`the outer destination ${e.dstIp} is not an address of this node (${myPa ?? 'address unknown'})`, `${e.type} to ${e.dstIp}, which is not this node`);
  if (net && net.type !== 'overlay') return refuse(`the pod network ${net.name} is ${net.type}, not an overlay: this node terminates no ${e.type} tunnel for it`, `a ${e.type} packet reached a node whose pod network is not an overlay`);
  if (e.vni !== undefined && myVni !== undefined && e.vni !== myVni) return refuse(`VNI ${e.vni} is not this network's VSID ${myVni}: the packet belongs to no virtual network here`, `VNI ${e.vni} does not match the pod network's VSID ${myVni}`);
  if (theirMac && myMac && theirMac !== myMac)
    return refuse(
      `the inner destination MAC ${theirMac} is not this network's distributed router MAC ${myMac}: Windows decapsulates at L2 and drops a frame for another MAC (the sender's RemoteSubnetRoute names a stale DR MAC)`,
      `the inner frame is addressed to DR MAC ${theirMac}, not to ${myMac}: not delivered`,
    );
  const inner: Packet = { ...w.packet, dstMac: myMac ?? w.packet.dstMac };
  delete inner.encap;
  w.add({
    at: 'uplink',
    kind: 'uplink',
    action: `${e.type} decap`,
    inferred: true,
    evidence: net?.src,
    note: `outer ${e.srcIp ?? '?'} → ${e.dstIp}${e.vni !== undefined ? ` VNI ${e.vni}` : ''} removed: this node's provider address${myVni !== undefined ? ` and VSID ${myVni}` : ''}${myMac ? `, inner frame to its DR MAC ${myMac}` : ''}; the decapsulation itself is not in the bundle's rules`,
    before: { ...w.packet },
    after: { ...inner },
    nodes: ctx.extPort ? [`port:${ctx.extPort.key}`] : [],
  });
  w.packet = inner;
  return true;
}

export function leaveEncapsulated(w: Walk): void {
  const { ctx } = w;
  const p = w.packet;
  const enc = p.encap!;
  const via = p.paRoute?.ifIndex !== undefined ? ctx.ifAddr.get(p.paRoute.ifIndex) : undefined;
  const route = familyOf(enc.dstIp) === 4 ? lookupRoute(ctx, enc.dstIp, via) : undefined;
  const constraint =
    p.paRoute?.ifIndex !== undefined
      ? via
        ? route
          ? `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex} (${via})`
          : `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex} (${via}), which has no route to ${enc.dstIp}`
        : `; ${p.paRoute.rule} pins it to interface index ${p.paRoute.ifIndex}, which the bundle's interface list does not name`
      : '';
  const i = w.add({
    at: 'uplink',
    kind: 'uplink',
    action: `${enc.type} encap`,
    rewrite: { encap: { type: enc.type, dstIp: enc.dstIp, vni: enc.vni } },
    evidence: route?.route.src,
    inferred: p.paRoute?.ifIndex !== undefined && (!via || !route) ? true : undefined,
    note: `outer packet ${enc.srcIp ?? ctx.nodeIp ?? '?'} → ${enc.dstIp}${enc.vni !== undefined ? `, VNI ${enc.vni}` : ''}; inner ${p.srcIp} → ${p.dstIp}${constraint}`,
    nodes: [...(ctx.extPort ? [`port:${ctx.extPort.key}`] : []), `next-hop:${enc.dstIp}`],
  });
  w.egress = { encapDst: enc.dstIp, nextHop: route && !route.route.onLink ? route.route.gateway : enc.dstIp, interface: route?.route.interface ?? via };
  const remote = ctx.remote.get(canonIp(p.dstIp) ?? '');
  // The encap rule decided where the packet goes; the uplink only carries it out.
  let encapHop = i - 1;
  while (encapHop > 0 && !w.hops[encapHop]?.rewrite?.encap) encapHop--;
  w.end('forwarded', `encapsulated (${enc.type}${enc.vni !== undefined ? ` VNI ${enc.vni}` : ''}) to the provider address ${enc.dstIp}${remote ? ` where pod ${p.dstIp} lives` : ''}`, encapHop > 0 && encapHop !== i ? encapHop : i);
}

/**
 * The uplink port's groups in one direction — the port's view: IN is from the vSwitch to the wire (a
 * packet leaving the node), OUT from the wire into the vSwitch (one arriving) — when the bundle has its
 * rules. False when they dropped the packet (the walk has ended).
 */
export function walkUplink(w: Walk, dir: 'IN' | 'OUT', opts: WalkOptions): boolean {
  const { ctx } = w;
  const m = ctx.model;
  if (ctx.extPort?.policy && m.vfp) {
    const policy = m.vfp.getPolicy(ctx.extPort.key);
    if (policy) {
      const res = walkPort(policy, `uplink ${ctx.extPort.friendlyName ?? short(ctx.extPort.name)}`, dir, w.packet, portCtx(w), opts);
      for (const h of res.hops) w.add({ ...h, nodes: [`port:${ctx.extPort.key}`] });
      w.packet = res.packet;
      if (res.droppedAt !== undefined) {
        w.end('dropped', res.reason ?? 'dropped on the uplink', w.hops.length - res.hops.length + res.droppedAt);
        return false;
      }
    }
  }
  return true;
}
