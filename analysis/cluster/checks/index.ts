// The cross-node checks (catalogue: analysis/checks/README.md, "Across nodes"). Each runs on its own:
// one that throws becomes an info finding and the others still run.
import type { ClusterModel } from '../types.ts';
import type { ClusterCheck, ClusterFinding } from './types.ts';
import { peersCheck } from './peers.ts';
import { servicesCheck } from './services.ts';
import { poolCheck } from './pool.ts';

export const CLUSTER_CHECKS: ClusterCheck[] = [peersCheck, servicesCheck, poolCheck];

const ORDER = { error: 0, warning: 1, info: 2 } as const;

export function runClusterChecks(c: ClusterModel, checks: ClusterCheck[] = CLUSTER_CHECKS): ClusterFinding[] {
  const out: ClusterFinding[] = [];
  for (const check of checks) {
    try {
      out.push(...check.run(c));
    } catch (e) {
      out.push({
        id: 'cluster-check-failed',
        severity: 'info',
        title: `The check "${check.title}" could not run`,
        explanation: `It failed on these bundles (${e instanceof Error ? e.message : String(e)}); the other checks ran.`,
        fix: 'Report it with the bundles if you can share them.',
        objects: [check.id],
        evidence: [],
        nodes: { odd: [], majority: [], total: c.nodes.length },
      });
    }
  }
  return out.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

export type { ClusterCheck, ClusterFinding, NodeEvidence } from './types.ts';
export { majorityOf } from './majority.ts';
