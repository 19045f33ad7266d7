// One walk, request or reply: runs the stages from the source (source.ts) and finishes the result with
// its caveats. walkFlow (index.ts) and the reply walk (reply.ts) both call it; it imports neither.
import { OverBudgetError } from '../../budget.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';
import type { Flow, WalkResult } from '../types.ts';
import { walkContext } from '../context.ts';
import type { WalkOptions } from '../walk-port.ts';
import { canonIp } from '../ip.ts';
import { returnPath } from '../return-path.ts';
import type { FlowTable } from '../flows.ts';
import { run } from './source.ts';
import { EPHEMERAL, K8S_LIMITS, Walk } from './state.ts';

export function runWalk(m: NodeModel, flow: Flow, opts: WalkOptions, reply?: { fwd: WalkResult; flows: FlowTable }): WalkResult {
  const ctx = walkContext(m);
  const icmp = flow.proto === 'icmp';
  const srcPort = icmp ? undefined : (flow.srcPort ?? EPHEMERAL);
  const w = new Walk(ctx, { srcIp: flow.srcIp, dstIp: flow.dstIp, srcPort, dstPort: icmp ? undefined : flow.dstPort, proto: flow.proto }, reply);
  w.flow = flow;
  try {
    run(w, flow, opts);
  } catch (e) {
    // A spent budget is no verdict: the caller says "not evaluated: over budget".
    if (e instanceof OverBudgetError) throw e;
    w.end('unknown', `internal error while walking: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!reply && icmp) icmpCaveats(w, m, flow);
  finishCaveats(w, !!reply);
  const p = w.packet;
  const result: WalkResult = {
    flow,
    verdict: w.verdict,
    reason: w.reason,
    hops: w.hops,
    deciding: w.deciding,
    final: { srcIp: p.srcIp, dstIp: p.dstIp, srcPort: p.srcPort, dstPort: p.dstPort, proto: p.proto },
    egress: w.egress,
    path: w.path,
    dependsOnUnmodelled: w.hops.some((h) => h.unmodelled && !h.superseded),
    inferred: w.hops.some((h) => h.inferred),
    caveats: w.caveats,
  };
  if (reply) result.kind = 'reply';
  else result.returnPath = returnPath(result);
  return result;
}

/** Caveats every walk carries: rules whose effect is not modelled, ambiguous ties, rewrites without state. */
export function finishCaveats(w: Walk, isReply: boolean): void {
  w.hops.forEach((h, i) => {
    if (h.superseded) return;
    if (h.unmodelled) w.caveat({ kind: 'unmodelled', hop: i, text: `hop ${i + 1} (${h.rule ?? h.at}): ${h.unmodelled}` });
    if (h.ambiguous) w.caveat({ kind: 'ambiguous', hop: i, text: `hop ${i + 1}: ${h.ambiguous} have the same priority and both match; VFP does not define which one applies` });
    const rw = h.rewrite;
    if (!isReply && h.kind === 'vfp' && rw && (rw.srcIp !== undefined || rw.dstIp !== undefined || rw.srcPort !== undefined || rw.dstPort !== undefined) && !h.stateful) {
      w.caveat({
        kind: 'stateless-rewrite',
        hop: i,
        text: `hop ${i + 1}: ${h.rule ?? h.at} rewrites the packet but keeps no flow state (no "stateful" flag, no flow pair): the reply is not translated back`,
      });
    }
  });
}

/** What `ping` shows: VFP does not NAT ICMP (Kubernetes docs, Windows networking limitations). */
export function icmpCaveats(w: Walk, m: NodeModel, flow: Flow): void {
  const notTransposed = w.hops.findIndex((h) => h.effect?.kind === 'icmp-untransposed');
  if (w.verdict === 'forwarded' && !w.egress.encapDst && w.ctx.local.has(canonIp(flow.srcIp) ?? '')) {
    let natTo: string | undefined;
    if (notTransposed < 0) {
      // Would TCP to the same destination be NATed? Then ICMP, which is not, leaves with the pod's address.
      const tcp = runWalk(m, { srcIp: flow.srcIp, dstIp: flow.dstIp, dstPort: 80, proto: 'tcp' }, {});
      if (tcp.final.srcIp !== flow.srcIp) natTo = tcp.final.srcIp;
    }
    if (notTransposed >= 0 || natTo) {
      // The ICMP caveat says why no answer comes back, more precisely than the general one.
      w.caveats = w.caveats.filter((c) => c.kind !== 'no-return');
      w.caveat({
        kind: 'icmp',
        hop: notTransposed >= 0 ? notTransposed : undefined,
        source: `${K8S_LIMITS} ("ICMP packets directed to pass through a remote network … cannot be transposed and thus will not be routed back to their source")`,
        text: `ping: the echo request leaves with the pod's own address ${flow.srcIp}${natTo ? ` (TCP and UDP to ${flow.dstIp} are SNATed to ${natTo}, ICMP is not)` : ''}; the answer does not come back. Test with TCP instead (curl, Test-NetConnection -Port).`,
      });
    }
  }
}
