// Loads the bundles of a cluster whole (each node's model kept: walks cross them) and joins them.
// A bundle that cannot be opened is reported and the others load.
import { loadBundle, type LoadOptions } from '../bundle/load.ts';
import { BundleOpenError } from '../bundle/source.ts';
import { runChecks } from '../../analysis/checks/index.ts';
import { buildClusterModel, nodeDigest, Interner, type ClusterInput, type ClusterModel } from '../../analysis/cluster/index.ts';
import type { Finding } from '../../analysis/findings/types.ts';
import type { FoundBundle } from './discover.ts';

export interface LoadedCluster {
  cluster: ClusterModel;
  /** Each node's own findings, by node id. */
  findings: Map<string, Finding[]>;
  failed: { bundle: string; error: string }[];
}

export async function loadCluster(bundles: readonly FoundBundle[], opts: LoadOptions & { onBundle?: (i: number, b: FoundBundle) => void } = {}): Promise<LoadedCluster> {
  const interner = new Interner();
  const inputs: ClusterInput[] = [];
  const found: Finding[][] = [];
  const failed: LoadedCluster['failed'] = [];
  for (const [i, b] of bundles.entries()) {
    opts.onBundle?.(i, b);
    try {
      const model = await loadBundle(b.path, opts);
      const findings = runChecks(model);
      const digest = nodeDigest(model, { id: model.meta.hostName ?? b.name.replace(/\.zip$/i, ''), bundle: b.path, findings, interner });
      inputs.push({ digest, model });
      found.push(findings);
    } catch (e) {
      // Also a parser or check that fails on one bundle: listed, and the other nodes load (as in a fleet run).
      failed.push({ bundle: b.path, error: e instanceof BundleOpenError ? e.message : `hnsight failed on this bundle (${e instanceof Error ? e.message : String(e)}); please report it` });
    }
  }
  const cluster = buildClusterModel(inputs, { joins: true });
  // Ids are unique only after the cluster is built (two bundles of one host get ` (2)`); a second bundle
  // of a node is left out of the cluster's nodes (counted once).
  const byDigest = new Map(inputs.map((x, i) => [x.digest, found[i]]));
  const findings = new Map(cluster.nodes.map((n) => [n.id, byDigest.get(n.digest) ?? []]));
  return { cluster, findings, failed };
}
