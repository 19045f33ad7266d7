// Reply walks: the rewrites the request got from HNS load balancer state (not from a VFP rule), undone
// where the reply meets them. Its own module because both the source stage and the vSwitch call it, and
// neither may import the reply walk (which runs them).
import type { Packet } from '../types.ts';
import { reverse, sameTuple, tupleOf } from '../flows.ts';
import type { Walk } from './state.ts';

/** Reply walks: a load-balancing rewrite the request got from HNS (not from a VFP rule) is undone here. */
export function undoHnsFlows(w: Walk): void {
  const fwd = w.reply?.fwd;
  if (!fwd) return;
  fwd.hops.forEach((h, i) => {
    if (h.kind !== 'note' || !h.stateful || !h.before || !h.after || w.undone.has(i)) return;
    if (!sameTuple(tupleOf(w.packet), reverse(tupleOf(h.after)))) return;
    const to = reverse(tupleOf(h.before));
    const after: Packet = { ...w.packet, srcIp: to.srcIp, srcPort: to.srcPort, dstIp: to.dstIp, dstPort: to.dstPort };
    w.add({
      at: 'vSwitch',
      kind: 'note',
      action: 'flow (reverse rewrite)',
      rewrite: {
        srcIp: after.srcIp !== w.packet.srcIp ? after.srcIp : undefined,
        srcPort: after.srcPort !== w.packet.srcPort ? after.srcPort : undefined,
        dstIp: after.dstIp !== w.packet.dstIp ? after.dstIp : undefined,
      },
      inferred: true,
      flow: true,
      note: `the request was translated by HNS load balancer state (hop ${i + 1}); its reverse is assumed to be undone the same way`,
      before: w.packet,
      after,
    });
    w.packet = after;
    w.undone.add(i);
  });
}
