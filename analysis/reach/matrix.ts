// Reachability between named sources and destinations (issue #25 point 2): every local pod and the
// host against the given destinations, or by default against every local pod (on the ports its
// Services target, else a ping), every Service port, one address per remote pod subnet, the node and
// the outside. One walk (its reply too) per cell, through the same outcome as the classes.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { FindingView } from '../findings/types.ts';
import type { Flow, Proto, WalkFinding } from '../walk/types.ts';
import { k8sNames } from '../k8s/index.ts';
import { withPathFindings } from '../walk/findings-on-path.ts';
import { familyOf } from '../walk/ip.ts';
import { outcomeOf, type BackendOutcome, type ReachVerdict } from './outcome.ts';
import { sharedRulesModel, withOwnLines } from './shared-rules.ts';
import { IPV4 } from './family-v4.ts';
import { destinationsOf, sourcesOf } from './sources.ts';
import type { Endpoint, Source } from './reach-types.ts';

export type { Endpoint, Source } from './reach-types.ts';

export { OUTSIDE } from './family-v4.ts';
export { remotePodSubnets } from './remote-subnets.ts';

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
  /** The destination was chosen by an assumption (sources.ts), with the assumption. */
  inferred?: string;
  /** The verdict rests on an inference (outcome.ts `verdictInference`), in the deciding step's words. */
  verdictInferred?: string;
}

/** Every local pod (IPv4) and the host (the IPv6 ones: v6/sources6.ts). */
export const defaultSources = (m: NodeModel): Source[] => sourcesOf(m, IPV4);

/** The default destinations: pods on their Service target ports, Service ports, remote pod subnets, the node, the outside. */
export const defaultDestinations = (m: NodeModel): Endpoint[] => destinationsOf(m, IPV4);

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
  let walked = 0;
  // Each address's family once (a big node's matrix has over a million cells, most not walked).
  const destFamily = destinations.map((d) => familyOf(d.ip));
  const destName = destinations.map((d) => d.name ?? names.podLabel(d.ip) ?? names.serviceLabel(d.ip));
  const why = `not walked: the budget of ${maxWalks} cells was spent`;
  for (const s of sources) {
    const fs = familyOf(s.ip);
    destinations.forEach((d, di) => {
      if (d.ip === s.ip) return;
      if (destFamily[di] !== fs) return;
      const port = d.port !== undefined && d.proto !== 'icmp' ? d.port : undefined;
      if (walked++ >= maxWalks) {
        cells.push(port !== undefined ? { from: s.ip, to: d.ip, port, proto: d.proto, verdict: 'insufficient information', decidingRule: null, decidedAt: 'not walked', reason: why, reply: null, findings: [] } : { from: s.ip, to: d.ip, proto: d.proto, verdict: 'insufficient information', decidingRule: null, decidedAt: 'not walked', reason: why, reply: null, findings: [] });
        return;
      }
      const flow: Flow = { srcIp: s.ip, dstIp: d.ip, proto: d.proto, ...(port !== undefined ? { dstPort: port } : {}) };
      // No outcome key: the matrix compares no two outcomes.
      const { outcome, walk } = outcomeOf(sm, flow, undefined, false, false);
      const findings = o.findings ? (withPathFindings(m, withOwnLines(sm, walk), o.findings).findings ?? []) : [];
      cells.push({
        from: s.ip,
        ...(s.name ? { fromName: s.name } : {}),
        to: d.ip,
        ...(destName[di] ? { toName: destName[di] } : {}),
        ...(flow.dstPort !== undefined ? { port: flow.dstPort } : {}),
        proto: d.proto,
        verdict: outcome.verdict,
        ...(outcome.verdicts ? { verdicts: outcome.verdicts } : {}),
        ...(outcome.verdictInferred !== undefined ? { verdictInferred: outcome.verdictInferred } : {}),
        decidingRule: outcome.decidingRule,
        decidedAt: outcome.decidedAt,
        reason: outcome.reason,
        // The class's reply, as `reach --from` gives it (outcome.ts): none for a request that did not get
        // through, and for a load balancer the one every backend's reply agrees on (else none).
        reply: outcome.reply ? { verdict: outcome.reply.verdict } : null,
        findings,
        ...(d.inferred ? { inferred: d.inferred } : {}),
      });
    });
  }
  return cells;
}
