// Issue 27's cluster of zip bombs, at small scale: four node bundles of one generated cluster, each a
// zip with three of its files replaced by zeros that deflate ~1000:1, opened together the way the app
// opens a cluster (discover, load each node). Each guard — the ratio of one entry, the total of one zip
// — must name every bad entry of every node and load the rest of each node as if the bombs were not
// there. (The bench opens the same shape at 1 GiB an entry: `zipBombCluster` in `npm run bench --json`.)
import { mkdtempSync, rmSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupClusters, writeGeneratedCluster } from '../../helpers/cluster.ts';
import { BOMB_ENTRIES, writeBombCluster } from '../../helpers/zip-bomb-cluster.ts';
import { discoverBundles } from '../../../services/cluster/discover.ts';
import { loadCluster } from '../../../services/cluster/load.ts';
import { DEFAULT_LIMITS, type BundleLimits } from '../../../services/bundle/limits.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const MiB = 1024 * 1024;
let nodesDir = '';
let bombDir = '';
let realBytes = 0;

function bytesUnder(dir: string): number {
  return readdirSync(dir).reduce((n, e) => {
    const p = path.join(dir, e);
    return n + (statSync(p).isDirectory() ? bytesUnder(p) : statSync(p).size);
  }, 0);
}

beforeAll(async () => {
  const w = await writeGeneratedCluster({ nodes: 4, platform: 'azure-cni', pods: 4, services: 4 });
  nodesDir = w.dir;
  bombDir = mkdtempSync(path.join(tmpdir(), 'hnsight-bombs-'));
  writeBombCluster(nodesDir, bombDir, 4 * MiB);
  realBytes = Math.max(...readdirSync(nodesDir).map((n) => bytesUnder(path.join(nodesDir, n))));
}, 120_000);

afterAll(async () => {
  await cleanupClusters();
  rmSync(bombDir, { recursive: true, force: true });
});

/** What a node read, by file: the facts a user sees of it, the bombs' files left out. */
function facts(m: NodeModel) {
  return {
    host: m.meta.hostName,
    endpoints: m.endpoints?.length ?? 0,
    networks: m.networks?.length ?? 0,
    read: m.files.filter((f) => f.encoding !== 'not-read' && !(BOMB_ENTRIES as readonly string[]).includes(f.name)).map((f) => f.name).sort(),
  };
}

async function openBombs(limits: BundleLimits) {
  const d = await discoverBundles(bombDir);
  return loadCluster(d.bundles, { limits });
}

async function openPlain() {
  const d = await discoverBundles(nodesDir);
  return loadCluster(d.bundles);
}

describe('a cluster of zip bombs', () => {
  it('the ratio guard names the three bombs of every node, and each node loads the rest', { timeout: 120_000 }, async () => {
    // The floor lowered to 1 MiB so these 4 MiB entries meet the ratio guard as 1 GiB ones do by default.
    const { cluster, failed } = await openBombs({ ...DEFAULT_LIMITS, inflation: { ratio: 200, minBytes: 1 * MiB } });
    const plain = await openPlain();
    expect(failed).toEqual([]);
    expect(cluster.nodes.map((n) => n.id)).toEqual(plain.cluster.nodes.map((n) => n.id));
    expect(cluster.nodes).toHaveLength(4);
    for (const [i, n] of cluster.nodes.entries()) {
      const m = n.model!;
      const notRead = m.files.filter((f) => f.encoding === 'not-read' && f.issues.length);
      expect(notRead.map((f) => f.name).sort()).toEqual([...BOMB_ENTRIES].sort());
      for (const f of notRead) expect(f.issues[0]!.message).toMatch(/^not read: it inflates \d+ times .*decompression bomb/);
      expect(facts(m)).toEqual({ ...facts(plain.cluster.nodes[i]!.model!), read: facts(plain.cluster.nodes[i]!.model!).read.filter((f) => !(BOMB_ENTRIES as readonly string[]).includes(f)) });
      expect(facts(m).endpoints).toBeGreaterThan(0);
    }
  });

  it('the total of one zip names the bombs past it in every node, and each node loads the rest', { timeout: 120_000 }, async () => {
    // No ratio guard here: a zip may inflate to its real files and less than one bomb more.
    const { cluster, failed } = await openBombs({ ...DEFAULT_LIMITS, inflation: { ratio: 1e9, minBytes: 1 * MiB }, maxZipBytes: realBytes + 1 * MiB });
    const plain = await openPlain();
    expect(failed).toEqual([]);
    expect(cluster.nodes).toHaveLength(4);
    for (const [i, n] of cluster.nodes.entries()) {
      const m = n.model!;
      const notRead = m.files.filter((f) => f.encoding === 'not-read' && f.issues.length);
      expect(notRead.map((f) => f.name).sort()).toEqual([...BOMB_ENTRIES].sort());
      // Each message names the zip the entry is in.
      for (const f of notRead) expect(f.issues[0]!.message).toContain(path.basename(n.bundle));
      expect(facts(m).endpoints).toBe(facts(plain.cluster.nodes[i]!.model!).endpoints);
      expect(facts(m).read).toEqual(facts(plain.cluster.nodes[i]!.model!).read.filter((f) => !(BOMB_ENTRIES as readonly string[]).includes(f)));
    }
  });
});
