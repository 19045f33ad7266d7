// Writes a generated cluster: each node's bundle in turn (built, written, dropped), as a folder named
// after its host or a zip beside the others (the layouts writeBundle knows).
import { join } from 'node:path';
import { writeBundle, type WriteOptions } from './write.ts';
import { buildClusterNode, type ClusterPlan } from './cluster-nodes.ts';

export interface ClusterWriteResult {
  /** One bundle per node, in node order (folders or zip files). */
  paths: string[];
  bytes: number;
}

export async function writeCluster(plan: ClusterPlan, outDir: string, opts: WriteOptions = {}, onNode?: (i: number, path: string) => void): Promise<ClusterWriteResult> {
  const paths: string[] = [];
  let bytes = 0;
  for (const [i, n] of plan.nodes.entries()) {
    const node = buildClusterNode(n);
    const res = await writeBundle(node, opts.zip ? outDir : join(outDir, n.host), opts);
    paths.push(res.path);
    bytes += res.bytes;
    onNode?.(i, res.path);
  }
  return { paths, bytes };
}
