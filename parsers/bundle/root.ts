// Zips arrive with the bundle at their root (AKS collect-windows-logs, Compress-Archive) or under one
// top folder (someone zipped the CollectLogs output folder). Find the folder that holds the bundle.
import { kindFromName } from './classify.ts';

export const CORE_FILE = /^(network|endpoint|policy|ip|routes|ports|vfpoutput|hnsdiag|namespaces)\.txt$/i;

/**
 * Returns the folder prefix ('' for the root, or 'dir/') under which the most core CollectLogs files
 * lie, preferring the shallowest on a tie. Paths use '/' separators.
 */
export function findBundleRoot(paths: string[]): { root: string; candidates: string[] } {
  const score = new Map<string, number>();
  for (const p of paths) {
    const parts = p.split('/');
    const base = parts.pop()!;
    if (!CORE_FILE.test(base) && !kindFromName(base)) continue;
    const dir = parts.length ? parts.join('/') + '/' : '';
    score.set(dir, (score.get(dir) ?? 0) + (CORE_FILE.test(base) ? 10 : 1));
  }
  const ranked = [...score.entries()].sort((a, b) => b[1] - a[1] || a[0].split('/').length - b[0].split('/').length);
  const candidates = ranked.filter(([, s]) => s >= 10).map(([d]) => d);
  const [best] = ranked;
  return { root: best ? best[0] : '', candidates };
}
