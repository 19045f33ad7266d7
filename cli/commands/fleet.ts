// `hnsight fleet DIR [--json] [--verbose]`: every bundle in DIR (folders and zips), one at a time, summarised
// node by node, then the outliers, the common findings and the findings across nodes.
import { UsageError } from '../errors.ts';
import { parseFlags } from '../args.ts';
import { BundleOpenError } from '../../services/bundle/source.ts';
import { discoverBundles } from '../../services/cluster/discover.ts';
import { runFleet } from '../../services/cluster/fleet.ts';
import { fleetNode } from '../../analysis/cluster/index.ts';
import { FLEET_HEADER, fleetLine, formatFleetTail } from '../format/fleet-text.ts';
import { writeWrapped } from '../format/wrap.ts';
import { safeJson, safeText } from '../format/safe-text.ts';

export async function runFleetCommand(argv: string[]): Promise<number> {
  const parsed = parseFlags('fleet', argv, { json: { type: 'boolean', default: false }, verbose: { type: 'boolean', short: 'v', default: false } });
  const [dir, ...extra] = parsed.positionals;
  if (!dir) throw new UsageError('fleet needs a folder that holds one bundle (folder or zip) per node');
  if (extra.length) throw new UsageError(`fleet takes one folder, got also: ${extra.join(' ')}`);
  const d = await discoverBundles(dir);
  if (d.isBundle) throw new BundleOpenError(`${dir} is one bundle: give the folder that holds one bundle per node`);
  if (!d.bundles.length) throw new BundleOpenError(`${dir} holds no bundle folder or zip`);
  const json = parsed.values.json;
  if (!json) writeWrapped(process.stdout, safeText(`fleet: ${d.bundles.length} bundle${d.bundles.length === 1 ? '' : 's'} in ${dir}${d.skipped.length ? ` (${d.skipped.length} other entr${d.skipped.length === 1 ? 'y' : 'ies'} skipped)` : ''}\n${FLEET_HEADER}\n`));
  const summary = await runFleet(d.bundles, {
    onNode: json ? undefined : (digest) => writeWrapped(process.stdout, safeText(fleetLine(fleetNode(digest))) + '\n'),
    onFailed: json ? undefined : (b, error) => writeWrapped(process.stdout, safeText(`${b.name.padEnd(20)} not read: ${error}\n`)),
  });
  if (json) process.stdout.write(safeJson({ ...summary, skipped: d.skipped }) + '\n');
  else writeWrapped(process.stdout, safeText(formatFleetTail(summary, { verbose: parsed.values.verbose, walkWith: /\s/.test(dir) ? JSON.stringify(dir) : dir })));
  // Exit 1 also when a bundle could not be read: the summary is not of every node (the tail says so).
  return summary.failed.length || summary.nodes.some((x) => x.errors > 0) || summary.consistency.some((f) => f.severity === 'error') ? 1 : 0;
}
