// Loads a folder of bundles as the app opens a cluster, in a process of its own, and prints one JSON
// line: each node's files with what they say, the bundles that failed, and the process's peak resident
// memory — the hard cap a test holds everything open together to.
// Run: node --max-old-space-size=N test/helpers/cluster-child.mjs <folder> (its bundle when current, else this file through tsx).
import { discoverBundles } from '../../services/cluster/discover.ts';
import { loadCluster } from '../../services/cluster/load.ts';
import { peakRssBytes } from './peak-rss.ts';

const d = await discoverBundles(process.argv[2]);
const { cluster, failed } = await loadCluster(d.bundles);
process.stdout.write(
  JSON.stringify({
    nodes: cluster.nodes.map((n) => ({ bundle: n.bundle, files: (n.model?.files ?? []).map((f) => ({ name: f.name, encoding: f.encoding, issues: f.issues.map((i) => `${i.severity}: ${i.message}`) })) })),
    failed,
    peakRssBytes: peakRssBytes(),
  }) + '\n',
);
