// One measured cluster open in a fresh process, the way the app's openCluster does it (discover the
// bundles of a folder, load each, run the cluster checks), so peak RSS belongs to this open alone.
// Prints one JSON line: { ms, peakRssBytes, nodes, failed, notRead } (notRead: per node, the files it
// did not read, with what they say).
import { peakRssBytes as peakRss } from '../helpers/peak-rss.ts';
import { discoverBundles } from '../../services/cluster/discover.ts';
import { loadCluster } from '../../services/cluster/load.ts';
import { runClusterChecks } from '../../analysis/cluster/index.ts';

const target = process.argv[2];
const t0 = performance.now();
const d = await discoverBundles(target);
const { cluster, failed } = await loadCluster(d.bundles);
runClusterChecks(cluster);
const ms = performance.now() - t0;
process.stdout.write(
  JSON.stringify({
    ms,
    peakRssBytes: peakRss(),
    nodes: cluster.nodes.length,
    failed,
    notRead: cluster.nodes.map((n) => ({
      node: n.id,
      files: (n.model?.files ?? []).filter((f) => f.encoding === 'not-read' && f.issues.length).map((f) => `${f.name}: ${f.issues[0]!.message}`),
      endpoints: n.model?.endpoints?.length ?? 0,
    })),
  }) + '\n',
);
