// A fleet run: the bundles of a folder one at a time — load, check, reduce to a digest, let the model
// go — then the summary over the digests. Memory stays at one bundle plus a compact digest per node
// (strings repeated across nodes interned once), so hundreds of nodes fit on a small machine. A bundle
// that fails is listed under `failed` and the others are read.
import { loadBundle, type LoadOptions } from '../bundle/load.ts';
import { BundleOpenError } from '../bundle/source.ts';
import { runChecks } from '../../analysis/checks/index.ts';
import { nodeDigest, summarizeFleet, Interner, type FleetSummary, type NodeDigest } from '../../analysis/cluster/index.ts';
import type { FoundBundle } from './discover.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { Finding } from '../../analysis/findings/types.ts';

export interface FleetOptions extends LoadOptions {
  /** Each node as it is done (the CLI prints its line at once). */
  onNode?: (d: NodeDigest, i: number, total: number) => void;
  onFailed?: (bundle: FoundBundle, error: string, i: number, total: number) => void;
  /** The node checks (runChecks unless given). */
  checks?: (model: NodeModel) => Finding[];
}

export async function runFleet(bundles: readonly FoundBundle[], opts: FleetOptions = {}): Promise<FleetSummary> {
  const interner = new Interner();
  const digests: NodeDigest[] = [];
  const failed: FleetSummary['failed'] = [];
  const ids = new Set<string>();
  for (const [i, b] of bundles.entries()) {
    let d: NodeDigest;
    try {
      const model = await loadBundle(b.path, opts);
      const findings = (opts.checks ?? runChecks)(model);
      let id = model.meta.hostName ?? b.name.replace(/\.zip$/i, '');
      for (let k = 2; ids.has(id.toLowerCase()); k++) id = `${model.meta.hostName ?? b.name} (${k})`;
      ids.add(id.toLowerCase());
      d = nodeDigest(model, { id, bundle: b.path, findings, interner });
    } catch (e) {
      // One bundle that cannot be read — or that a parser or check fails on — is listed and the run goes
      // on: one broken node must not end a run over hundreds.
      const error = e instanceof BundleOpenError ? e.message : `hnsight failed on this bundle (${e instanceof Error ? e.message : String(e)}); please report it`;
      failed.push({ bundle: b.path, error });
      opts.onFailed?.(b, error, i, bundles.length);
      continue;
    }
    digests.push(d);
    opts.onNode?.(d, i, bundles.length);
  }
  return summarizeFleet(digests, failed);
}
