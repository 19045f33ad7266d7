// The `hnsight inspect DIR --cluster --json` document: the nodes (who they are, what they hold, their
// own findings counted), the joins between them (resolved or not, and why not), the Services and the
// nodes that program them, addresses several nodes claim, and the findings across nodes.
import type { InspectCounts } from '../inspect.ts';
import type { Finding } from '../findings/types.ts';
import type { ClusterFinding } from './checks/index.ts';
import type { ClusterJoin, ClusterModel, ServiceJoin } from './types.ts';

export interface ClusterDocument {
  schema: 'hnsight-cluster/1';
  nodes: {
    id: string;
    host: string;
    bundle: string;
    platform: string;
    plugin: string;
    nodeIp: string | null;
    providerAddress: string | null;
    drMac: string | null;
    vni: number | null;
    addresses: string[];
    podSubnets: { prefix: string; from: string }[];
    k8sNode: string | null;
    windowsBuild: string | null;
    counts: InspectCounts;
    errors: number;
    warnings: number;
    /** The node's own findings (errors and warnings), as `inspect` of its bundle gives them. */
    findings: { id: string; severity: Finding['severity']; title: string }[];
  }[];
  /** The clusters the bundles come from (node ids; one list when they are one cluster). */
  clusters: string[][];
  /** Second bundles of a node, left out (counted once). */
  duplicates: { bundle: string; of: string }[];
  joins: ClusterJoin[];
  unresolved: number;
  services: ServiceJoin[];
  sharedAddresses: ClusterModel['sharedAddresses'];
  findings: ClusterFinding[];
  failed: { bundle: string; error: string }[];
  skipped: { name: string; reason: string }[];
}

export function clusterDocument(c: ClusterModel, nodeFindings: Map<string, Finding[]>, findings: ClusterFinding[], failed: ClusterDocument['failed'] = [], skipped: ClusterDocument['skipped'] = []): ClusterDocument {
  return {
    schema: 'hnsight-cluster/1',
    nodes: c.nodes.map((n) => {
      const i = n.identity;
      const own = (nodeFindings.get(n.id) ?? []).filter((f) => f.severity !== 'info');
      return {
        id: n.id,
        host: i.host,
        bundle: n.bundle,
        platform: i.platformLabel,
        plugin: i.plugin,
        nodeIp: i.nodeIp ?? null,
        providerAddress: i.providerAddress ?? null,
        drMac: i.drMac ?? null,
        vni: i.vni ?? null,
        addresses: i.addresses,
        podSubnets: i.podSubnets.map((s) => ({ prefix: s.prefix, from: s.from })),
        k8sNode: i.k8sNode ?? null,
        windowsBuild: i.windowsBuild ?? null,
        counts: n.digest.counts,
        errors: n.digest.errors,
        warnings: n.digest.warnings,
        findings: own.map((f) => ({ id: f.id, severity: f.severity, title: f.title })),
      };
    }),
    clusters: c.parts.map((p) => p.nodes.map((n) => n.id)),
    duplicates: c.duplicates.map((d) => ({ bundle: d.bundle, of: d.of })),
    joins: c.joins,
    unresolved: c.joins.filter((j) => !j.resolved).length,
    services: c.services,
    sharedAddresses: c.sharedAddresses,
    findings,
    failed,
    skipped,
  };
}
