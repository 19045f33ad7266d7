// The flow state a walked request leaves behind, for walking its reply. VFP layers are stateful: a
// rule flagged `stateful`, an lbnat rule "Creating a flow pair" and every dynnat binding create a
// flow whose reverse direction is matched before the layer's rules and gets the reverse header
// transposition (Firestone, "VFP", NSDI 2017: flows per layer, unified flow table; vfpctrl `/?`:
// rule flag 2 "stateful", lbnat flag 524288 "Create flow"; etl_vfpext.npl flow types Dnat, Snat,
// DynamicDnat, DynamicSnat). A layer where the request matched a rule without state (or no rule)
// keeps nothing: the reply is judged by that layer's rules in its own direction.
import type { Packet, Proto, WalkHop } from './types.ts';
import { canonIp } from './ip.ts';

export interface Tuple {
  srcIp: string;
  dstIp: string;
  srcPort?: number;
  dstPort?: number;
  proto: Proto;
}

export interface FlowEntry {
  /** What the reply looks like when it reaches this layer. */
  match: Tuple;
  /** What the layer turns it into (the request's tuple before the layer, reversed). */
  to: Tuple;
  /** The request's hop that created the flow (its rule, layer, evidence). */
  hop: WalkHop;
  hopIndex: number;
}

/** A port the request left with a rewritten tuple: a reply to that tuple is switched back to it. */
export interface SteerEntry {
  port: string;
  match: Tuple;
  hop: WalkHop;
}

const key = (t: Tuple) => `${t.proto}|${canonIp(t.srcIp)}|${t.srcPort ?? ''}|${canonIp(t.dstIp)}|${t.dstPort ?? ''}`;
const rev = (p: Tuple): Tuple => ({ srcIp: p.dstIp, dstIp: p.srcIp, srcPort: p.dstPort, dstPort: p.srcPort, proto: p.proto });
export const tupleOf = (p: Packet): Tuple => ({ srcIp: p.srcIp, dstIp: p.dstIp, srcPort: p.srcPort, dstPort: p.dstPort, proto: p.proto });
export const reverse = rev;
export const sameTuple = (a: Tuple, b: Tuple) => key(a) === key(b);

export class FlowTable {
  private layers = new Map<string, FlowEntry[]>();
  private steer: SteerEntry[] = [];
  /** Every port/layer the request crossed (with or without a rule that keeps state). */
  private crossedLayers = new Set<string>();

  /** Built from a request's hops: any walk result, also one read back from JSON. */
  static fromHops(hops: WalkHop[]): FlowTable {
    const t = new FlowTable();
    const lastOnPort = new Map<string, { last: WalkHop; rewriter?: WalkHop }>();
    hops.forEach((h, i) => {
      if (!h.port || !h.before || !h.after) return;
      const port = h.port.toLowerCase();
      if (h.layer !== undefined) t.crossedLayers.add(`${port}|${h.layer}`);
      if (h.kind === 'vfp' && h.stateful && !h.superseded && h.layer !== undefined && h.effect?.kind !== 'block') {
        const k = `${port}|${h.layer}`;
        const list = t.layers.get(k) ?? [];
        list.push({ match: rev(tupleOf(h.after)), to: rev(tupleOf(h.before)), hop: h, hopIndex: i });
        t.layers.set(k, list);
      }
      const rw = h.rewrite;
      const rewrote = !!rw && (rw.srcIp !== undefined || rw.dstIp !== undefined || rw.srcPort !== undefined || rw.dstPort !== undefined) && !!h.stateful;
      const prev = lastOnPort.get(port);
      lastOnPort.set(port, { last: h, rewriter: rewrote ? h : prev?.rewriter });
    });
    for (const [port, { last, rewriter }] of lastOnPort) if (rewriter) t.steer.push({ port, match: rev(tupleOf(last.after!)), hop: rewriter });
    return t;
  }

  /** The flow of this layer the packet belongs to, if the request created one. */
  match(port: string, layer: string, p: Packet): FlowEntry | undefined {
    const list = this.layers.get(`${port.toLowerCase()}|${layer}`);
    if (!list) return undefined;
    const k = key(tupleOf(p));
    return list.find((e) => key(e.match) === k);
  }

  /** The request crossed this layer of this port (in its own direction). */
  crossed(port: string, layer: string): boolean {
    return this.crossedLayers.has(`${port.toLowerCase()}|${layer}`);
  }

  /** The port whose rewritten request this packet answers, if any. */
  steerTo(p: Packet): SteerEntry | undefined {
    const k = key(tupleOf(p));
    return this.steer.find((s) => key(s.match) === k);
  }

  get size(): number {
    return this.layers.size;
  }
}
