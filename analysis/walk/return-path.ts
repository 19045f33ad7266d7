// The reply of a walked flow. VFP keeps a flow's state where a rule says so (the `stateful` flag,
// or an lbnat rule "Creating a flow pair"), and the reply is translated back by that state: the
// backend's address becomes the VIP again, the node's SNAT address the pod's. A rewriting rule
// without state leaves the reply untranslated — the source would not recognise it.
import type { Proto, ReturnPath, WalkResult } from './types.ts';

type Tuple = { srcIp: string; dstIp: string; srcPort?: number; dstPort?: number; proto: Proto };

const fmt = (ip: string, port?: number) => `${ip}${port !== undefined ? `:${port}` : ''}`;

export function returnPath(t: Pick<WalkResult, 'verdict' | 'hops' | 'final' | 'egress' | 'caveats'>): ReturnPath | undefined {
  if (t.verdict !== 'delivered' && t.verdict !== 'forwarded') return undefined;
  const f = t.final;
  const sent: Tuple = { srcIp: f.dstIp, dstIp: f.srcIp, srcPort: f.dstPort, dstPort: f.srcPort, proto: f.proto };
  // An echo request that left untransposed is not answered back to the pod (Kubernetes docs, Windows
  // networking limitations: ICMP "cannot be transposed and thus will not be routed back to their
  // source"): the walk's ICMP caveat says so, and no summary says the opposite — there is none.
  const icmp = t.verdict === 'forwarded' ? (t.caveats ?? []).find((c) => c.kind === 'icmp') : undefined;
  if (icmp) return undefined;
  const r: Tuple = { ...sent };
  const steps: ReturnPath['steps'] = [];
  const notes: string[] = [];
  // The hops from the last back to the first: the reply undoes the latest rewrite first.
  for (const [i, h] of [...t.hops.entries()].reverse()) {
    const w = h.rewrite;
    // The host's choice of source address (host routing) is where the packet starts, not a translation.
    if (h.kind === 'host-route') continue;
    if (!w || !h.before || (w.srcIp === undefined && w.dstIp === undefined && w.srcPort === undefined && w.dstPort === undefined)) continue;
    const stateful = !!h.stateful;
    const parts: string[] = [];
    // Forward DNAT (destination rewritten) → the reply's source is rewritten back.
    if (w.dstIp !== undefined || w.dstPort !== undefined) {
      const from = fmt(r.srcIp, r.srcPort);
      if (stateful) {
        r.srcIp = h.before.dstIp;
        r.srcPort = h.before.dstPort;
      }
      parts.push(`source ${from} → ${fmt(h.before.dstIp, h.before.dstPort)}`);
    }
    // Forward SNAT (source rewritten) → the reply's destination is rewritten back.
    if (w.srcIp !== undefined || w.srcPort !== undefined) {
      const from = fmt(r.dstIp, r.dstPort);
      if (stateful) {
        r.dstIp = h.before.srcIp;
        r.dstPort = h.before.srcPort;
      }
      parts.push(`destination ${from} → ${fmt(h.before.srcIp, h.before.srcPort)}`);
    }
    steps.push({ hop: i, rule: h.rule, layer: h.layer, what: `${stateful ? 'undone' : 'NOT undone'}: ${parts.join(', ')}`, stateful, evidence: h.evidence });
    if (!stateful) notes.push(`${h.rule ?? h.at} rewrote the packet but keeps no flow state (not stateful, no flow pair): the reply is not translated back and the source will not match it to its connection`);
  }
  if (t.egress.encapDst) notes.push(`the reply comes back VXLAN-encapsulated from ${t.egress.encapDst}; its decapsulation is in that node's rules`);
  if (!steps.length && !notes.length) notes.push('no rule rewrote the addresses: the reply travels the same path back unchanged');
  return { sent, received: r, steps, notes };
}
