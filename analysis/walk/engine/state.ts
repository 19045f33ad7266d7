// The state of one walk (hops, verdict, the packet as it is now) and the helpers every stage uses.
import type { VfpPortRef } from '../../../parsers/model/types.ts';
import type { HnsEndpoint } from '../../../parsers/hns/index.ts';
import type { Flow, Packet, WalkCaveat, WalkHop, WalkResult, Verdict } from '../types.ts';
import type { WalkContext } from '../context.ts';
import type { PortWalkContext } from '../walk-port.ts';
import { familyOf } from '../ip.ts';
import { FlowTable } from '../flows.ts';
import type { VfpRule } from '../../../parsers/vfp/index.ts';

export const EPHEMERAL = 49152;

export const K8S_LIMITS = 'https://kubernetes.io/docs/concepts/services-networking/windows-networking/#limitations';

export const short = (g: string) => (/^[0-9a-f]{8}-/i.test(g) ? `${g.slice(0, 8)}…` : g);

/** Container-ID endpoint names (64 hex digits + _network) are shortened the way docker/ctr print IDs. */
export const shortName = (n: string) => {
  const m = /^([0-9a-f]{12})[0-9a-f]{40,}(_.*)?$/i.exec(n);
  return m ? `${m[1]}…${m[2] ?? ''}` : short(n);
};

export { hostPort as fmt } from '../../../parsers/net/address.ts';

export type SourceKind = 'pod' | 'host' | 'outside';

export class Walk {
  hops: WalkHop[] = [];
  flow!: Flow;
  path: string[] = [];
  verdict: Verdict = 'unknown';
  reason = '';
  deciding = -1;
  egress: WalkResult['egress'] = {};
  caveats: WalkCaveat[] = [];
  sourceKind: SourceKind = 'outside';
  /** The VFP port the packet started on (reply steering never sends it back there). */
  sourcePort?: string;
  /** The backend a load balancer (VFP or HNS) sent the packet to, to check it exists. */
  dnatDip?: string;
  /** The destination was translated by an HNS load balancer the rules do not show (NodePort). */
  viaHnsLb = false;
  /** Reply walks: request hops whose HNS-only translation was already undone. */
  undone = new Set<number>();
  constructor(
    readonly ctx: WalkContext,
    public packet: Packet,
    readonly reply?: { fwd: WalkResult; flows: FlowTable },
  ) {}

  add(h: WalkHop): number {
    this.hops.push(h);
    // The path lists each object once, where the packet first reaches it.
    for (const n of h.nodes ?? []) if (!this.path.includes(n)) this.path.push(n);
    return this.hops.length - 1;
  }

  end(verdict: Verdict, reason: string, deciding = this.hops.length - 1): void {
    this.verdict = verdict;
    this.reason = reason;
    this.deciding = deciding;
  }

  caveat(c: WalkCaveat): void {
    if (!this.caveats.some((x) => x.kind === c.kind && x.text === c.text)) this.caveats.push(c);
  }
}

export function portCtx(w: Walk, ownerIp?: string): PortWalkContext {
  const fam = familyOf(w.packet.srcIp);
  return {
    flow: w.flow,
    nodeIp: fam === 6 ? w.ctx.nodeIp6 : w.ctx.nodeIp,
    portIp: ownerIp,
    hns: w.ctx.hns,
    flows: w.reply?.flows,
  };
}

export const macKey = (m: string | undefined) => m?.replace(/[:-]/g, '').toLowerCase();

/** The rule a hop on a port names (for re-reading its data). */
export function ruleOfHop(w: Walk, h: WalkHop): VfpRule | undefined {
  if (!h.port || !w.ctx.model.vfp) return undefined;
  const port = portByName(w.ctx, h.port.toLowerCase());
  const pol = port ? w.ctx.model.vfp.getPolicy(port.key) : undefined;
  for (const l of pol?.layers ?? []) for (const g of l.groups) for (const r of g.rules) if (r.src.line === h.evidence?.line && r.name === h.rule) return r;
  return undefined;
}

export function portByName(ctx: WalkContext, name: string): VfpPortRef | undefined {
  return (ctx.model.ports ?? []).find((p) => p.name.toLowerCase() === name || p.key === name);
}

export function endpointOfPort(ctx: WalkContext, port: VfpPortRef): HnsEndpoint | undefined {
  for (const [id, p] of ctx.portOf) if (p === port) return ctx.endpointsById.get(id.toLowerCase());
  return undefined;
}
