// Generated clusters for tests: N nodes of one platform written to a temp folder (one bundle each) and,
// when asked, loaded whole the way `inspect --cluster` and `trace A B` load them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { planCluster, writeCluster, type ClusterPlan, type ClusterSpec, type WriteOptions } from '../../tools/gen/index.ts';
import { discoverBundles } from '../../services/cluster/discover.ts';
import { loadCluster, type LoadedCluster } from '../../services/cluster/load.ts';

const temps: string[] = [];

export interface WrittenCluster {
  plan: ClusterPlan;
  dir: string;
  paths: string[];
}

export async function writeGeneratedCluster(spec: Partial<ClusterSpec>, opts: WriteOptions = {}): Promise<WrittenCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hnsight-cluster-'));
  temps.push(dir);
  const plan = planCluster(spec);
  const res = await writeCluster(plan, dir, opts);
  return { plan, dir, paths: res.paths };
}

export async function loadGeneratedCluster(spec: Partial<ClusterSpec>, opts: WriteOptions = {}): Promise<WrittenCluster & LoadedCluster> {
  const w = await writeGeneratedCluster(spec, opts);
  const d = await discoverBundles(w.dir);
  return { ...w, ...(await loadCluster(d.bundles)) };
}

export async function cleanupClusters(): Promise<void> {
  while (temps.length) await rm(temps.pop()!, { recursive: true, force: true });
}
