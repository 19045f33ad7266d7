// The cross-node checks (catalogue: analysis/checks/README.md, "Across nodes"). Each runs on its own:
// one that throws becomes an info finding and the others still run. They compare the nodes of one
// cluster with each other: bundles of several clusters are split first (../partition.ts) and each part
// is checked on its own; a second bundle of a node is counted once.
import type { ClusterModel } from '../types.ts';
import type { ClusterCheck, ClusterFinding, NodeEvidence } from './types.ts';
import { peersCheck } from './peers.ts';
import { servicesCheck } from './services.ts';
import { poolCheck } from './pool.ts';
import { apiServiceOf } from '../partition.ts';
import { list, nodeEv } from './majority.ts';

export const CLUSTER_CHECKS: ClusterCheck[] = [peersCheck, servicesCheck, poolCheck];

const ORDER = { error: 0, warning: 1, info: 2 } as const;

/** What the bundles opened are: several clusters, a node's bundle twice. */
export function inputFindings(c: ClusterModel): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  const total = c.nodes.length + c.duplicates.length;
  for (const d of c.duplicates) {
    const of = c.byId(d.of);
    out.push({
      id: 'cluster-duplicate-bundle',
      severity: 'warning',
      title: `${d.bundle} is a second bundle of ${d.of}: counted once`,
      explanation: `${d.bundle} and ${d.ofBundle} both come from host ${of?.identity.host ?? d.of}${of?.identity.nodeIp ? ` at ${of.identity.nodeIp}` : ''}. Counted twice, one node would outvote the others and conflict with itself (its own pod subnet "held twice"); only ${d.ofBundle} is compared with the other nodes.`,
      fix: 'Keep one bundle per node in the folder (the newest). To compare two bundles of one node, use hnsight diff.',
      objects: [d.of, d.bundle],
      evidence: [],
      nodes: { odd: [], majority: [], total },
    });
  }
  if (c.parts.length > 1) {
    const name = (i: number) => `cluster ${i + 1} (${list((c.parts[i]?.nodes ?? []).map((n) => n.id), 4)})`;
    const alone = c.parts.filter((p) => p.nodes.length < 2).flatMap((p) => p.nodes.map((n) => n.id));
    const evidence: NodeEvidence[] = [];
    for (const p of c.parts) {
      for (const n of p.nodes) {
        const api = apiServiceOf(n.digest);
        if (!api) continue;
        const key = `${api.vip.includes(':') ? `[${api.vip}]` : api.vip}:443/TCP`;
        const i = n.digest.lbs.keys.indexOf(key);
        const file = n.digest.lbs.files[i];
        const line = n.digest.lbs.lines[i];
        if (file !== undefined && line !== undefined) evidence.push(nodeEv(p, n, { file, line }, api.vip));
        break;
      }
    }
    out.push({
      id: 'cluster-several-clusters',
      severity: 'warning',
      title: `These bundles are from ${c.parts.length} clusters: each is checked on its own`,
      explanation: `${c.parts.map((p, i) => `${name(i)}: ${p.nodes[0]?.identity.platformLabel ?? 'no node'}`).join('; ')}. ${c.apart.map((x) => `${name(x.a).replace(/ \(.*$/, '')} and ${name(x.b).replace(/ \(.*$/, '')}: ${x.why}`).join('; ')}. Nodes of different clusters program different Services and pod subnets, so they are compared only with the nodes of their own cluster.${alone.length ? ` ${list(alone)} ${alone.length > 1 ? 'are' : 'is'} alone in ${alone.length > 1 ? 'their' : 'its'} cluster: no peer to compare ${alone.length > 1 ? 'them' : 'it'} with.` : ''}`,
      fix: 'Open the bundles of one cluster together (one folder per cluster). If these nodes are in fact one cluster, look at why they disagree on the kubernetes Service or the network plugin first.',
      objects: c.parts.flatMap((p) => p.nodes.map((n) => n.id)),
      evidence,
      nodes: { odd: [], majority: [], total: c.nodes.length },
    });
  }
  return out;
}

export function runClusterChecks(c: ClusterModel, checks: ClusterCheck[] = CLUSTER_CHECKS): ClusterFinding[] {
  const out: ClusterFinding[] = inputFindings(c);
  for (const part of c.parts) {
    if (part.nodes.length < 2) continue;
    for (const check of checks) {
      try {
        out.push(...check.run(part));
      } catch (e) {
        out.push({
          id: 'cluster-check-failed',
          severity: 'info',
          title: `The check "${check.title}" could not run`,
          explanation: `It failed on these bundles (${e instanceof Error ? e.message : String(e)}); the other checks ran.`,
          fix: 'Report it with the bundles if you can share them.',
          objects: [check.id],
          evidence: [],
          nodes: { odd: [], majority: [], total: part.nodes.length },
        });
      }
    }
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

export type { ClusterCheck, ClusterFinding, NodeEvidence } from './types.ts';
export { majorityOf } from './majority.ts';
