// Handlers of the cluster domain: a folder of bundles (one per node) opened together, its graph of
// nodes and the paths between them, and a walk that goes from node to node. The app holds a few
// clusters of a few nodes whole (each node's model kept for walks); hundreds of nodes are for
// `hnsight fleet`, which keeps one at a time.
import path from 'node:path';
import { ApiError } from '../../../contract/index.ts';
import type { Request, Response } from '../../../contract/index.ts';
import { runClusterChecks, walkAcross, withAcrossFindings, type ClusterModel } from '../../../analysis/cluster/index.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import { clusterGraph, walkLitIds } from '../../../analysis/view-models/cluster-graph.ts';
import { discoverBundles, type Discovery } from '../../cluster/discover.ts';
import { loadCluster } from '../../cluster/load.ts';
import { BundleOpenError } from '../../bundle/source.ts';
import { releaseNode } from '../../bundle/memory-budget.ts';
import { nextId } from '../ids.ts';
import type { BackendContext } from '../context.ts';
import { chosenBundle } from '../grants.ts';
import type { Handlers } from '../dispatch.ts';

/** More nodes than this are refused in the app (the command line's `fleet` summarises any number). */
export const MAX_CLUSTER_NODES = 40;
/** Clusters kept open at once; opening another closes the oldest. */
const MAX_OPEN = 3;

interface OpenCluster {
  cluster: ClusterModel;
  opened: Response<'openCluster'>;
  /** The files it was opened from (openCluster { paths }): uploads kept for it are released with it. */
  paths: string[];
}

export function clusterHandlers(ctx: BackendContext): Pick<Handlers, 'openCluster' | 'getClusterGraph' | 'walkAcross'> {
  const open = new Map<string, OpenCluster>();
  // Files no open cluster uses any more: an upload kept for one (keep=1) is deleted (services/server).
  const releasePaths = (paths: readonly string[]) => {
    const inUse = new Set([...open.values()].flatMap((c) => c.paths));
    for (const p of paths) if (!inUse.has(p)) ctx.bundles.releaseLocation(p);
  };
  const get = (clusterId: string) => {
    const c = open.get(clusterId);
    if (!c) throw new ApiError(`no open cluster ${clusterId}`, 'not-found');
    return c;
  };
  const openOne = async ({ path: p, paths }: Request<'openCluster'>): Promise<Response<'openCluster'>> => {
    let d: Pick<Discovery, 'bundles' | 'skipped' | 'isBundle'>;
    let location: string;
    if (paths) {
      // Files dropped or picked together: each one node (a zip, or a bundle folder in the desktop app).
      // Each must be the user's: in the desktop app the preload sends only paths of Files the user
      // dropped or picked (electron/preload); in the browser they are this server's own uploads.
      const list: string[] = [];
      for (const x of paths) {
        if (ctx.opts.mode === 'electron') ctx.grants.allowOpen(x);
        list.push(await chosenBundle(ctx, x));
      }
      location = `${list.length} bundles opened together`;
      d = { isBundle: false, skipped: [], bundles: list.map((x) => ({ path: x, name: path.basename(x), kind: /\.zip$/i.test(x) ? 'zip' : 'folder' })) };
    } else {
      // A folder the user chose: a dialog's answer, the command line, under a folder allowed on it.
      location = await chosenBundle(ctx, p!);
      try {
        d = await discoverBundles(location);
      } catch (e) {
        throw new ApiError(e instanceof Error ? e.message : String(e), e instanceof BundleOpenError ? 'not-found' : 'failed');
      }
    }
    if (d.isBundle) throw new ApiError(`${location} is one bundle: open it as a node, or open the folder that holds one bundle per node`, 'invalid');
    if (!d.bundles.length) throw new ApiError(`${location} holds no bundle folder or zip`, 'invalid');
    if (d.bundles.length > MAX_CLUSTER_NODES) throw new ApiError(`${location} holds ${d.bundles.length} bundles; the app opens at most ${MAX_CLUSTER_NODES} nodes together (use \`hnsight fleet\` for more)`, 'refused');
    const { cluster, failed } = await loadCluster(d.bundles);
    if (!cluster.nodes.length) throw new ApiError(`none of the bundles (${location}) could be read${failed[0] ? `: ${failed[0].error}` : ''}`, 'failed');
    const findings = runClusterChecks(cluster);
    const clusterId = nextId('cluster');
    const opened: Response<'openCluster'> = {
      clusterId,
      location,
      nodes: cluster.nodes.map((n) => ({ id: n.id, host: n.identity.host, bundle: n.bundle, platform: n.identity.platformLabel, nodeIp: n.identity.nodeIp, errors: n.digest.errors, warnings: n.digest.warnings })),
      joins: cluster.joins.length,
      unresolved: cluster.joins.filter((j) => !j.resolved).length,
      findings,
      failed,
      skipped: d.skipped,
    };
    open.set(clusterId, { cluster, opened, paths: paths ? d.bundles.map((b) => b.path) : [] });
    // The oldest is closed: an upload only it used goes with it.
    while (open.size > MAX_OPEN) {
      const oldest = open.keys().next().value!;
      const gone = open.get(oldest)!;
      open.delete(oldest);
      // Its nodes' bytes are free for the next load at once.
      for (const n of gone.cluster.nodes) if (n.model) releaseNode(n.model);
      releasePaths(gone.paths);
    }
    return opened;
  };
  return {
    openCluster: async (req) => {
      try {
        return await openOne(req);
      } catch (e) {
        // Never opened: the uploads sent for it are not kept either.
        if (req.paths) releasePaths(req.paths.map((x) => path.resolve(x)));
        throw e;
      }
    },
    getClusterGraph: async ({ clusterId }) => {
      const c = get(clusterId);
      return clusterGraph(c.cluster, c.opened.findings);
    },
    walkAcross: async ({ clusterId, reply, ...flow }) => {
      const { cluster, opened } = get(clusterId);
      // The walk meets each node's findings and the findings across nodes (their keys index the
      // cluster's findings list), so its verdict never contradicts a finding on either node.
      const w = withAcrossFindings(cluster, walkAcross(cluster, flow, { explain: true, reply: !!reply }), opened.findings, modelFindings);
      return { ...w, lit: walkLitIds(cluster, w), replyLit: w.reply ? walkLitIds(cluster, w.reply) : undefined };
    },
  };
}
