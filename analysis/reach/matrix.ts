// Reachability between named sources and destinations (issue #25 point 2): every local pod and the
// host against the given destinations, or by default against every local pod (on the ports its
// Services target, else a ping), every Service port, one address per remote pod subnet, the node and
// the outside. One walk (its reply too) per cell, through the same outcome as the classes.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { FindingView } from '../findings/types.ts';
import type { Flow, Proto, WalkFinding } from '../walk/types.ts';
import { walkContext } from '../walk/context.ts';
import { checkContext } from '../checks/context.ts';
import { k8sNames } from '../k8s/index.ts';
import { withPathFindings } from '../walk/findings-on-path.ts';
import { cidrRange, familyOf, intToIp, ipToInt } from '../walk/ip.ts';
import { outcomeOf, reachVerdict, type BackendOutcome, type ReachVerdict } from './outcome.ts';
import { sharedRulesModel, withOwnLines } from './shared-rules.ts';
import { noRoutes6 } from './v6/sources6.ts';
import { undecided } from './v6/partition6.ts';
import type { Endpoint, Source } from './reach-types.ts';

export type { Endpoint, Source } from './reach-types.ts';

/** An address outside the cluster (example.com's), as the walk presets use for pod → outside. */
export const OUTSIDE = '93.184.216.34';

export interface ReachCell {
  from: string;
  fromName?: string;
  to: string;
  toName?: string;
  port?: number;
  proto: Proto;
  verdict: ReachVerdict;
  verdicts?: BackendOutcome[];
  decidingRule: string | null;
  decidedAt: string;
  reason: string;
  reply: { verdict: ReachVerdict } | null;
  findings: WalkFinding[];
  inferred?: string;
}

/** Every local pod (IPv4) and the host. */
export function defaultSources(m: NodeModel): Source[] {
  const names = k8sNames(m);
  const out: Source[] = checkContext(m)
    .localPods.filter((e) => familyOf(e.ip) === 4)
    .map((e) => ({ ip: e.ip!, name: names.podLabel(e.ip) }));
  const node = walkContext(m).nodeIp;
  if (node) out.push({ ip: node, name: 'host' });
  return out;
}

/** The default destinations: pods on their Service target ports, Service ports, remote pod subnets, the node, the outside. */
export function defaultDestinations(m: NodeModel): Endpoint[] {
  const ctx = walkContext(m);
  const names = k8sNames(m);
  const out: Endpoint[] = [];
  const seen = new Set<string>();
  const push = (e: Endpoint) => {
    const k = `${e.ip}|${e.port ?? ''}|${e.proto}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(e);
    }
  };
  const protoOf = (n: number): Proto | undefined => (n === 6 ? 'tcp' : n === 17 ? 'udp' : undefined);
  for (const e of checkContext(m).localPods) {
    if (familyOf(e.ip) !== 4) continue;
    const targets = (m.loadBalancers ?? []).flatMap((lb) => (lb.endpointIds.includes(e.id.toLowerCase()) || lb.endpointIds.includes(e.id) ? lb.ports : []));
    const name = names.podLabel(e.ip);
    let any = false;
    for (const p of targets) {
      const proto = protoOf(p.protocol);
      if (!proto || !p.internalPort) continue;
      any = true;
      push({ ip: e.ip!, port: p.internalPort, proto, name });
    }
    if (!any) push({ ip: e.ip!, proto: 'icmp', name, inferred: 'no Service targets this pod: a ping stands for it' });
  }
  for (const lb of m.loadBalancers ?? []) {
    const vips = lb.vips.filter((v) => familyOf(v) === 4);
    for (const vip of vips)
      for (const p of lb.ports) {
        const proto = protoOf(p.protocol);
        if (proto && p.externalPort) push({ ip: vip, port: p.externalPort, proto, name: names.serviceLabel(vip) ?? names.lbLabel(lb) });
      }
  }
  for (const s of remotePodSubnets(m)) push({ ip: s.example, proto: 'icmp', name: `remote pod subnet ${s.prefix}`, inferred: s.inferred, remote: true });
  if (ctx.nodeIp) push({ ip: ctx.nodeIp, proto: 'icmp', name: 'node' });
  push({ ip: OUTSIDE, port: 443, proto: 'tcp', name: 'outside' });
  return out;
}

/**
 * One address per remote pod subnet: a remote endpoint inside it when the bundle has one, else the
 * subnet's second address (inferred). Subnets: HNS remote subnet routes (overlay), else /24s of remote
 * pod endpoints (l2bridge shows no subnet object; the /24 is an assumption, said as such).
 */
export function remotePodSubnets(m: NodeModel): { prefix: string; example: string; inferred?: string }[] {
  const out: { prefix: string; example: string; inferred?: string }[] = [];
  const names = k8sNames(m);
  // Remote endpoints that are pods: with a kubectl snapshot, those it names as pods (not the API
  // server behind default/kubernetes, not a node); without one, every remote endpoint.
  const remotes = (m.endpoints ?? []).filter((e) => e.isRemote && familyOf(e.ip) === 4 && !names.apiServerLabel(e.ip) && (!names.present || !!names.podByIp(e.ip)));
  const covered = (ip: string) => out.some((s) => {
    const r = cidrRange(s.prefix);
    const n = ipToInt(ip)!;
    return r && n >= r.lo && n <= r.hi;
  });
  for (const n of m.networks ?? [])
    for (const r of n.remoteSubnetRoutes) {
      const c = cidrRange(r.destinationPrefix);
      if (!c || out.some((s) => s.prefix === r.destinationPrefix)) continue;
      const inside = remotes.find((e) => ipToInt(e.ip)! >= c.lo && ipToInt(e.ip)! <= c.hi);
      out.push({ prefix: r.destinationPrefix, example: inside?.ip ?? intToIp(c.lo + 2), ...(inside ? {} : { inferred: `no remote endpoint in ${r.destinationPrefix}: its second address stands for a pod` }) });
    }
  const podNets = new Set((m.networks ?? []).flatMap((n) => n.subnets.map((s) => s.prefix)));
  for (const e of remotes) {
    if (covered(e.ip!)) continue;
    const n = ipToInt(e.ip)!;
    const prefix = `${intToIp((n & 0xffffff00) >>> 0)}/24`;
    if (podNets.has(prefix)) continue;
    out.push({ prefix, example: e.ip!, inferred: `the bundle names no subnet for remote endpoint ${e.ip}: its /24 is assumed` });
  }
  return out;
}

export interface MatrixOptions {
  findings?: readonly FindingView[];
  sources?: Source[];
  /** Most cells walked (each walks its reply, and a load balancer's every backend); the rest are not walked. */
  maxWalks?: number;
}

export const DEFAULT_MATRIX_WALKS = 200_000;

export function reachMatrix(m: NodeModel, destinations: Endpoint[], o: MatrixOptions = {}): ReachCell[] {
  const names = k8sNames(m);
  const sources = o.sources ?? defaultSources(m);
  const cells: ReachCell[] = [];
  const maxWalks = o.maxWalks ?? DEFAULT_MATRIX_WALKS;
  // The node with the rules several ports print alike read once (shared-rules.ts): the same walks; the
  // findings on a path join on rule lines, so they read the walk with each rule at its own port's line.
  const sm = sharedRulesModel(m);
  // A bundle without IPv6 routes cannot say that an IPv6 packet has none (as reach --from: v6/partition6.ts).
  const silence6 = noRoutes6(m);
  let walked = 0;
  for (const s of sources)
    for (const d of destinations) {
      if (d.ip === s.ip) continue;
      if (familyOf(d.ip) !== familyOf(s.ip)) continue;
      const flow: Flow = { srcIp: s.ip, dstIp: d.ip, proto: d.proto, ...(d.port !== undefined && d.proto !== 'icmp' ? { dstPort: d.port } : {}) };
      if (walked++ >= maxWalks) {
        const why = `not walked: the budget of ${maxWalks} cells was spent`;
        cells.push({ from: s.ip, to: d.ip, ...(flow.dstPort !== undefined ? { port: flow.dstPort } : {}), proto: d.proto, verdict: 'insufficient information', decidingRule: null, decidedAt: 'not walked', reason: why, reply: null, findings: [] });
        continue;
      }
      const r = outcomeOf(sm, flow);
      const { walk } = r;
      const outcome = silence6 && familyOf(s.ip) === 6 ? undecided(r.outcome, walk, `where IPv6 packets leave the node cannot be read: ${silence6}`) : r.outcome;
      const findings = o.findings ? (withPathFindings(m, withOwnLines(sm, walk), o.findings).findings ?? []) : [];
      cells.push({
        from: s.ip,
        ...(s.name ? { fromName: s.name } : {}),
        to: d.ip,
        ...((d.name ?? names.podLabel(d.ip) ?? names.serviceLabel(d.ip)) ? { toName: d.name ?? names.podLabel(d.ip) ?? names.serviceLabel(d.ip) } : {}),
        ...(flow.dstPort !== undefined ? { port: flow.dstPort } : {}),
        proto: d.proto,
        verdict: outcome.verdict,
        ...(outcome.verdicts ? { verdicts: outcome.verdicts } : {}),
        decidingRule: outcome.decidingRule,
        decidedAt: outcome.decidedAt,
        reason: outcome.reason,
        // The reply of the walked example (for a load balancer: of the backend the walk picked).
        reply: outcome !== r.outcome ? null : walk.reply ? { verdict: reachVerdict(walk.reply) } : null,
        findings,
        ...(d.inferred ? { inferred: d.inferred } : {}),
      });
    }
  return cells;
}
