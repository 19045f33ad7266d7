// `hnsight serve [bundle | folder of bundles] [--port N] [--allow DIR]...`: browser mode. Prints one
// line with the local URL (token included) and serves until interrupted. The page opens only what the
// user chose: the bundle or folder of bundles named here, bundles under a folder given with --allow,
// recent bundles, uploads.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../errors.ts';
import { parseFlags, wholeNumberFlag } from '../args.ts';
import { Backend } from '../../services/backend/backend.ts';
import { startServer } from '../../services/server/server.ts';
import { guardProcess } from '../../services/process-guard.ts';
import { defaultDataDir } from '../../services/recent.ts';
import { clusterTargets } from '../../services/cluster/discover.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function runServe(argv: string[]): Promise<number> {
  const parsed = parseFlags('serve', argv, { port: { type: 'string', default: '0' }, allow: { type: 'string', multiple: true, default: [] } });
  const port = wholeNumberFlag(parsed.values.port, '--port', { min: 0, max: 65535 }) ?? 0;
  const [bundle, ...extra] = parsed.positionals;
  if (extra.length) throw new UsageError(`serve takes at most one bundle, got also: ${extra.join(' ')}`);
  // Built in a process of its own: the server's memory is the app's, not the bundler's.
  const { buildRendererInChild } = await import(pathToFileURL(path.join(repo, 'tools/build-renderer.mjs')).href);
  await buildRendererInChild();
  const allowedRoots = (parsed.values.allow ?? []).map((d) => path.resolve(d));
  // A folder of bundles (one per node) opens as a cluster.
  const cluster = bundle ? await clusterTargets([bundle]) : undefined;
  const backend = new Backend({
    mode: 'browser',
    dataDir: process.env.HNSIGHT_DATA_DIR || defaultDataDir(),
    initialBundle: bundle && !cluster ? path.resolve(bundle) : undefined,
    initialCluster: bundle && cluster ? path.resolve(bundle) : undefined,
    allowedRoots,
  });
  // One forgotten failure must not end the server and every bundle open in it.
  const unguard = guardProcess((m) => process.stderr.write(`${m}\n`));
  const server = await startServer({ backend, staticDir: path.join(repo, 'dist/renderer'), port });
  process.stdout.write(`hnsight: serving on ${server.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  // A comparison's reachability worker is kept for its walks: it would keep the process alive.
  backend.close();
  unguard();
  return 0;
}
