// Handlers of the live domain: collections from a running node, and the targets collected from.
import path from 'node:path';
import { ApiError } from '../../../contract/index.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

type LiveMethods = 'startCollect' | 'getCollectJob' | 'cancelCollect' | 'listSavedTargets' | 'forgetTarget';

export function liveHandlers(ctx: BackendContext): Pick<Handlers, LiveMethods> {
  const { collects, savedTargets, opts } = ctx;
  return {
    startCollect: async (req) => {
      const t = req.target;
      const credentialFiles = [t.transport === 'kubectl' ? t.kubeconfig : undefined, t.transport === 'ssh' ? t.privateKeyFile : undefined, t.transport === 'ssh' ? t.knownHostsFile : undefined];
      for (const f of credentialFiles) {
        if (f && (await ctx.grants.fromOutside(f, ctx.bundles.locations()))) throw new ApiError(`refused: ${path.resolve(f)} came from an upload or a bundle; a kubeconfig, key or known-hosts file must be your own`, 'refused');
      }
      // The collection writes a new bundle folder: by default under the app's data folder; elsewhere
      // only under a folder the user allowed on the command line (hnsight serve --allow).
      if (req.outDir && !(await ctx.grants.underRoot(req.outDir))) throw new ApiError(`refused: ${path.resolve(req.outDir)} is not under a folder you allowed; the collection goes to the app's data folder unless hnsight serve --allow names one`, 'refused');
      const started = await collects.start(req);
      // What it writes is the user's to open when it is done.
      ctx.grants.allowOpen(collects.get(started.jobId).outDir);
      return started;
    },
    getCollectJob: async ({ jobId }) => collects.get(jobId),
    cancelCollect: async ({ jobId }) => {
      collects.cancel(jobId);
      return { ok: true };
    },
    listSavedTargets: async () => {
      const list = await savedTargets.list();
      const store = opts.secretStore;
      const keys = new Set(store ? await store.keys().catch(() => [] as string[]) : []);
      return list.map((t) => ({ ...t, passwordRemembered: keys.has(t.key) }));
    },
    forgetTarget: async ({ key, passwordOnly }) => {
      if (opts.secretStore) await opts.secretStore.delete(key);
      if (!passwordOnly) await savedTargets.remove(key);
      return { ok: true };
    },
  };
}
