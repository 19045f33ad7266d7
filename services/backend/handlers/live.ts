// Handlers of the live domain: collections from a running node, and the targets collected from.
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

type LiveMethods = 'startCollect' | 'getCollectJob' | 'cancelCollect' | 'listSavedTargets' | 'forgetTarget';

export function liveHandlers(ctx: BackendContext): Pick<Handlers, LiveMethods> {
  const { collects, savedTargets, opts } = ctx;
  return {
    startCollect: (req) => collects.start(req),
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
