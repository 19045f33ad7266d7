// Handlers of the bundle domain: the app's info, opening (paths, drops, demos, dialogs), load jobs,
// the recent list, and the views of an open bundle (topology, inventory, search, inspector, excerpts).
import path from 'node:path';
import { ApiError } from '../../../contract/index.ts';
import { buildInventory } from '../../../analysis/view-models/inventory.ts';
import { buildInspector } from '../../../analysis/view-models/inspector.ts';
import { buildTopology } from '../../../analysis/topology.ts';
import { searchBundle } from '../search.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { DEFAULT_DEMO_DIR } from '../demo-dir.ts';
import { budgeted } from '../budgeted.ts';
import { chosenBundle } from '../grants.ts';

type BundleMethods = 'info' | 'openBundle' | 'openDropped' | 'openDemo' | 'pickBundle' | 'getJob' | 'cancelLoad' | 'listRecent' | 'closeBundle' | 'getTopology' | 'getInventory' | 'search' | 'inspect' | 'getExcerpt';

export function bundleHandlers(ctx: BackendContext): Pick<Handlers, BundleMethods> {
  const { opts, bundles, loads } = ctx;
  return {
    info: async () => {
      const refusal = rememberRefusal(ctx);
      return {
        mode: opts.mode,
        version: opts.version ?? '0.1.0',
        demos: [
          { name: 'l2bridge-node', title: 'Demo: l2bridge node (HNS v2, get-rule-counter)' },
          { name: 'overlay-node', title: 'Demo: overlay node (HNS v1, list-rule)' },
        ],
        nativeDialogs: !!opts.dialogs,
        initialBundle: opts.initialBundle,
        initialCluster: opts.initialCluster,
        liveCollection: true,
        rememberPasswords: refusal ? { available: false, reason: refusal } : { available: true },
      };
    },
    openBundle: async ({ path: p }) => loads.start(await chosenBundle(ctx, p)),
    // Only the desktop shell's preload sends this, with the path of a File the user dropped (the page
    // cannot make one up); in browser mode a dropped file is uploaded instead.
    openDropped: async ({ path: p }) => {
      if (opts.mode !== 'electron') throw new ApiError('refused: in the browser, a dropped file is uploaded (POST /upload), not opened by its path', 'refused');
      ctx.grants.allowOpen(p);
      return loads.start(path.resolve(p));
    },
    openDemo: async ({ name }) => loads.start(path.join(opts.demoDir ?? DEFAULT_DEMO_DIR, name), { remember: false }),
    pickBundle: async (req) => {
      const picked = opts.dialogs ? await opts.dialogs.pickBundle(req) : null;
      // What the native dialog answered is what the user chose.
      if (picked) ctx.grants.allowOpen(picked.path);
      return picked;
    },
    getJob: async ({ jobId }) => loads.get(jobId),
    cancelLoad: async ({ jobId }) => {
      loads.cancel(jobId);
      return { ok: true };
    },
    listRecent: async () => ctx.recent.list(),
    closeBundle: async ({ bundleId, client }) => {
      if (client) bundles.release(bundleId, client);
      else bundles.close(bundleId);
      return { ok: true };
    },
    getTopology: async ({ bundleId, expandLoadBalancers }) => {
      const b = bundles.get(bundleId);
      const key = expandLoadBalancers ? 'expanded' : 'default';
      b.topology ??= new Map();
      let g = b.topology.get(key);
      if (!g) {
        g = budgeted('the topology', () => buildTopology(b.model, { expandLoadBalancers: !!expandLoadBalancers }));
        b.topology.set(key, g);
      }
      return g;
    },
    getInventory: async ({ bundleId }) => budgeted('the inventory', () => buildInventory(bundles.get(bundleId).model)),
    search: async ({ bundleId, query, limit }) => {
      const b = bundles.get(bundleId);
      const index = await b.search.get();
      return budgeted('the search', () => searchBundle(b.model, index, query, limit ?? 50));
    },
    inspect: async ({ bundleId, ref }) => {
      const view = budgeted('the inspector', () => buildInspector(bundles.get(bundleId).model, ref));
      if (!view) throw new ApiError(`nothing in this bundle is ${ref.type} ${ref.id}`, 'not-found');
      return view;
    },
    getExcerpt: async ({ bundleId, file, line, context }) => {
      try {
        return await bundles.get(bundleId).excerpts.excerpt(file, line, context ?? 6);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new ApiError(e instanceof Error ? e.message : String(e), 'not-found');
      }
    },
  };
}

/** Why a password cannot be remembered here, or undefined when it can. */
export function rememberRefusal(ctx: BackendContext): string | undefined {
  const store = ctx.opts.secretStore;
  if (!store) return ctx.opts.mode === 'browser' ? 'remembering passwords needs the desktop app' : 'remembering passwords is not available';
  return store.unavailableReason();
}
