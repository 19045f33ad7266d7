// Where a walk across nodes meets the findings, so that its verdict never contradicts a finding on
// either node. Like the single-node walk (analysis/walk/findings-on-path.ts), the stitching stays free
// of checks and its caller joins them once per walk:
//   - each node's half is joined with that node's own findings (withPathFindings: a finding about the
//     source pod, the backend, the Service, the remote subnet, a matched rule…);
//   - the findings across nodes are attached where the packet meets them: a stale provider address,
//     DR MAC, VNI, host route or remote endpoint on a node the packet leaves from, for a destination in
//     the prefix it is about (on the hand-over, where the packet goes wrong); a node missing (or alone in
//     having) the load balancer of the Service the packet is addressed to (on that node's first hop).
// The pool-wide comparisons (exception lists, CNI config, builds, flags) name a node, not a packet:
// they stay in the cluster's findings and do not qualify a walk.
import type { NodeModel } from '../../parsers/model/types.ts';
import { withPathFindings, lowerFirst } from '../walk/findings-on-path.ts';
import type { FindingView } from '../findings/types.ts';
import { inCidr, canonIp } from '../walk/ip.ts';
import type { WalkFinding, WalkResult } from '../walk/types.ts';
import type { ClusterFinding } from './checks/types.ts';
import type { ClusterModel } from './types.ts';
import type { StitchedFinding, StitchedWalk } from './walk-across.ts';

type Sev = WalkFinding['severity'];
const RANK: Record<Sev, number> = { error: 0, warning: 1, info: 2 };
/** Cross-node findings about where a node sends another node's pods. */
const PATH_IDS = new Set(['cluster-stale-provider-address', 'cluster-stale-dr-mac', 'cluster-vni-differs', 'cluster-stale-host-route', 'cluster-remote-endpoint-pa']);
const LB_IDS = new Set(['cluster-lb-missing', 'cluster-lb-extra', 'cluster-lb-backends-differ']);

const isCidr = (s: string) => s.includes('/') && !s.includes(' ');

/** The keys (as the node digests write them) of the Service the packet was addressed to, before any DNAT. */
function serviceKeys(c: ClusterModel, w: StitchedWalk): string[] {
  if (w.flow.dstPort === undefined) return [];
  const ip = canonIp(w.flow.dstIp) ?? w.flow.dstIp;
  const keys = [`${ip.includes(':') ? `[${ip}]` : ip}:${w.flow.dstPort}/${w.flow.proto}`];
  if (c.nodeOfAddress(ip)) keys.push(`nodeport ${w.flow.dstPort}/${w.flow.proto}`);
  return keys;
}

/** The findings across nodes this walk meets, on the hop where it meets them. */
function acrossFindings(c: ClusterModel, w: StitchedWalk, findings: readonly ClusterFinding[]): StitchedFinding[] {
  const out: StitchedFinding[] = [];
  const svc = serviceKeys(c, w);
  findings.forEach((f, index) => {
    const key = `cluster:${index}`;
    if (PATH_IDS.has(f.id)) {
      // The half on an odd node that leaves towards a destination in the prefix the finding is about.
      // (A remote endpoint finding lists the pod addresses themselves.)
      const prefixes = f.objects.filter(isCidr);
      const ips = new Set(f.id !== 'cluster-remote-endpoint-pa' ? [] : f.objects.filter((o) => !isCidr(o)).map((o) => canonIp(o)).filter((o): o is string => !!o));
      for (const [leg, l] of w.legs.entries()) {
        if (!f.nodes.odd.includes(l.node) || l.walk.verdict !== 'forwarded') continue;
        const dst = l.walk.final.dstIp;
        if (!prefixes.some((p) => inCidr(dst, p)) && !ips.has(canonIp(dst) ?? dst)) continue;
        // kube-proxy's remote endpoints are load balancer backends (winkernel proxier.go): a packet
        // addressed to the pod itself never meets them, only one a load balancer sent there (DNAT on this leg).
        if (f.id === 'cluster-remote-endpoint-pa' && (canonIp(l.walk.flow.dstIp) ?? l.walk.flow.dstIp) === (canonIp(dst) ?? dst)) continue;
        const hop = w.hops.findIndex((h) => h.kind === 'handover' && h.leg === leg);
        out.push({
          key,
          id: f.id,
          severity: f.severity as Sev,
          title: f.title,
          hop: hop >= 0 ? hop : undefined,
          why: `${l.node} sends ${dst} by what it believes about the node that holds it, and that belief is what this finding is about`,
          node: l.node,
          acrossNodes: true,
        });
        return;
      }
    } else if (LB_IDS.has(f.id) && svc.length) {
      if (!f.objects.some((o) => svc.includes(o.toLowerCase()))) return;
      const leg = w.legs.findIndex((l) => f.nodes.odd.includes(l.node));
      const node = w.legs[leg]?.node;
      if (node === undefined) return;
      const hop = w.hops.findIndex((h) => h.leg === leg && h.kind !== 'handover');
      const to = `${w.flow.dstIp}:${w.flow.dstPort}/${w.flow.proto}`;
      const why =
        f.id === 'cluster-lb-missing'
          ? `the packet is addressed to ${to}, which the other nodes load-balance and ${node} does not: no load balancer on ${node} sends it to a backend`
          : f.id === 'cluster-lb-extra'
            ? `the packet is addressed to ${to}, which ${node} load-balances while most other nodes have no load balancer for it (a Service that is gone, or one the others miss)`
            : `the packet is addressed to ${to}, which ${node} load-balances to other backends than the other nodes`;
      out.push({
        key,
        id: f.id,
        severity: f.severity as Sev,
        title: f.title,
        hop: hop >= 0 ? hop : undefined,
        why,
        node,
        acrossNodes: true,
      });
    }
  });
  return out;
}

/** The hop as the readable form numbers it: hand-overs are not counted. */
function hopNumber(w: StitchedWalk, hop: number): number {
  const n = w.hops.filter((h, i) => i <= hop && h.kind !== 'handover').length;
  return Math.max(1, n);
}

function caveatOf(w: StitchedWalk, fs: StitchedFinding[]): StitchedWalk['verdictCaveat'] {
  const serious = fs.filter((f) => f.severity === 'error' || f.severity === 'warning');
  // The worst first; among equals one across nodes (what only the cluster shows), then the one on the
  // deciding hop, then the latest on the path.
  const by = (x: boolean) => (x ? 0 : 1);
  const best = [...serious].sort(
    (a, b) => RANK[a.severity] - RANK[b.severity] || by(!!a.acrossNodes) - by(!!b.acrossNodes) || by(a.hop === w.deciding) - by(b.hop === w.deciding) || (b.hop ?? -1) - (a.hop ?? -1),
  )[0];
  if (!best) return undefined;
  const more = serious.length - 1;
  const where = best.hop !== undefined ? (w.hops[best.hop]?.kind === 'handover' ? `on ${best.node}, at the hand-over` : `on ${best.node}, hop ${hopNumber(w, best.hop)}`) : `on ${best.node}`;
  return {
    severity: best.severity as 'error' | 'warning',
    text: `${lowerFirst(best.title)} (${where})${more ? `; ${more} more finding${more > 1 ? 's' : ''} on this path` : ''}`,
  };
}

/**
 * The walk across nodes with its findings: each node's half joined with that node's findings
 * (`nodeFindings`), the findings across nodes it meets, and the verdict's caveat from the worst of them.
 */
export function withAcrossFindings(c: ClusterModel, w: StitchedWalk, across: readonly ClusterFinding[], nodeFindings: (m: NodeModel) => readonly FindingView[]): StitchedWalk {
  const fs: StitchedFinding[] = [];
  const legs = w.legs.map((l, leg) => {
    const model = c.byId(l.node)?.model;
    if (!model) return l;
    const walk: WalkResult = withPathFindings(model, l.walk, nodeFindings(model));
    const offset = w.hops.findIndex((h) => h.leg === leg && h.kind !== 'handover');
    for (const f of walk.findings ?? []) fs.push({ ...f, hop: f.hop !== undefined && offset >= 0 ? offset + f.hop : undefined, node: l.node });
    return { ...l, walk };
  });
  fs.push(...acrossFindings(c, w, across));
  fs.sort((a, b) => (a.hop ?? -1) - (b.hop ?? -1) || RANK[a.severity] - RANK[b.severity]);
  const out: StitchedWalk = { ...w, legs, findings: fs };
  const caveat = caveatOf(w, fs);
  if (caveat) out.verdictCaveat = caveat;
  else delete out.verdictCaveat;
  if (w.reply) out.reply = withAcrossFindings(c, w.reply, across, nodeFindings);
  return out;
}
