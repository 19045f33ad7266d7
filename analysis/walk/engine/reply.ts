// The reply: a walk of its own that starts where the request ended and crosses the layers back through
// the flows the request created (flows.ts).
import { fabricCarriesBack } from '../fabric-return.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Flow, WalkCaveat, WalkResult } from '../types.ts';
import { walkContext } from '../context.ts';
import type { WalkOptions } from '../walk-port.ts';
import { canonIp } from '../ip.ts';
import { FlowTable, reverse, sameTuple, type Tuple } from '../flows.ts';
import { runWalk } from './run.ts';
import { fmt } from './state.ts';

/**
 * The reply of a walked request, as a walk of its own: it starts where the request ended (the pod or
 * host it reached, or the network beyond the uplink), crosses the layers back, and the flows the
 * request created let it through and undo their rewrites. Its verdict says whether the source gets it
 * as the answer to its own connection.
 */
export function walkReply(m: NodeModel, fwd: WalkResult, opts: WalkOptions = {}): WalkResult {
  const proto = fwd.final.proto;
  const sent = reverse(fwd.final);
  const flow: Flow = { srcIp: sent.srcIp, dstIp: sent.dstIp, srcPort: sent.srcPort, dstPort: sent.dstPort, proto };
  const none = (verdict: WalkResult['verdict'], reason: string, caveats: WalkCaveat[] = [], inferred = false): WalkResult => ({
    flow,
    verdict,
    reason,
    hops: [],
    deciding: -1,
    final: { ...sent },
    egress: {},
    path: [],
    kind: 'reply',
    dependsOnUnmodelled: !!fwd.dependsOnUnmodelled,
    inferred,
    caveats,
  });
  if (fwd.verdict !== 'delivered' && fwd.verdict !== 'forwarded') return none('unknown', `the request is ${fwd.verdict === 'dropped' ? 'dropped' : 'not known to arrive'}: there is no reply to walk`);
  const icmp = (fwd.caveats ?? []).find((c) => c.kind === 'icmp');
  if (icmp && fwd.verdict === 'forwarded') return none('dropped', `no echo reply: ${icmp.text}`, [icmp], true);
  const flows = FlowTable.fromHops(fwd.hops);
  const r = runWalk(m, flow, { ...opts, reply: false }, { fwd, flows });
  // What the source expects: its own request, reversed.
  // A host source takes the outgoing interface's address (hostEgress): that is the socket's address.
  const chosenSrc = fwd.hops.find((h) => h.kind === 'host-route' && h.rewrite?.srcIp)?.rewrite?.srcIp;
  const asSent: Tuple = { srcIp: chosenSrc ?? fwd.flow.srcIp, dstIp: fwd.flow.dstIp, srcPort: fwd.hops[0]?.after?.srcPort ?? fwd.flow.srcPort, dstPort: fwd.flow.proto === 'icmp' ? undefined : fwd.flow.dstPort, proto };
  const expected = reverse(asSent);
  if (r.verdict === 'delivered' || r.verdict === 'forwarded') {
    if (sameTuple(r.final, expected)) r.reason += `; it is the answer ${fmt(expected.srcIp, expected.srcPort)} → ${fmt(expected.dstIp, expected.dstPort)} the source expects`;
    else {
      const stateless = (fwd.caveats ?? []).filter((c) => c.kind === 'stateless-rewrite').map((c) => c.text);
      const text = `the source expects ${fmt(expected.srcIp, expected.srcPort)} → ${fmt(expected.dstIp, expected.dstPort)} but gets ${fmt(r.final.srcIp, r.final.srcPort)} → ${fmt(r.final.dstIp, r.final.dstPort)}: its connection will not accept it${stateless.length ? ` (${stateless.join('; ')})` : ''}`;
      r.caveats!.push({ kind: 'reply-mismatch', text });
      r.reason += `; but ${text}`;
    }
  }
  // A request that left by the default route with a pod's own address (the request's no-return
  // caveat, routing.ts) is answered only if the network outside routes that address back here, which
  // the bundle cannot show: the reply walked is how it would come back, its verdict is unknown. One
  // rule for every protocol (audit of issue #25, A2: TCP read "delivered" while ICMP read "dropped").
  // Only where HNS was asked to SNAT the pod (its endpoint has an OutBoundNAT policy) and did not for
  // this packet: without that policy the plugin's own NAT (WinNAT of a nat network, Antrea's) is done
  // outside VFP, where the bundle does not show it, and the reply is walked as it comes back.
  const noReturn = (fwd.caveats ?? []).find((c) => c.kind === 'no-return');
  const natAsked = walkContext(m).local.get(canonIp(fwd.flow.srcIp) ?? '')?.policies.some((p) => p.type.toLowerCase() === 'outboundnat');
  if (noReturn && natAsked && (r.verdict === 'delivered' || r.verdict === 'forwarded')) {
    r.reason = `whether an answer comes back is not in the bundle: ${noReturn.text}; if it does, it is ${r.verdict}: ${r.reason}`;
    r.verdict = 'unknown';
  }
  // A request that left the node with a pod's own address is answered only if the network outside
  // routes that address back here.
  const fwdSrc = canonIp(fwd.final.srcIp) ?? '';
  const ctx = walkContext(m);
  const fabric = fwd.verdict === 'forwarded' && !fwd.egress.encapDst && ctx.local.has(fwdSrc) ? fabricCarriesBack(ctx, fwd.final.srcIp, fwd.final.dstIp) : undefined;
  if (fabric) {
    // The plugin's cloud network routes the pod address back (fabric-return.ts): an inference, said.
    r.reason += ` (inferred: ${fabric})`;
    r.inferred = true;
  } else if (fwd.verdict === 'forwarded' && !fwd.egress.encapDst && ctx.local.has(fwdSrc) && !ctx.remote.has(canonIp(fwd.final.dstIp) ?? '')) {
    r.caveats!.push({
      kind: 'no-return',
      text: `the request left the node with the pod's own address ${fwd.final.srcIp} (not SNATed): this reply arrives only if the network outside routes ${fwd.final.srcIp} back to this node`,
    });
    r.inferred = true;
  }
  return r;
}
