// Handlers of the live domain: collections from a running node, and the targets collected from.
import path from 'node:path';
import { ApiError } from '../../../contract/index.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

type LiveMethods = 'startCollect' | 'getCollectJob' | 'cancelCollect' | 'listSavedTargets' | 'forgetTarget' | 'pickCredentialFile';

export function liveHandlers(ctx: BackendContext): Pick<Handlers, LiveMethods> {
  const { collects, savedTargets, opts } = ctx;
  return {
    startCollect: async (req) => {
      const t = req.target;
      // A kubeconfig can run a command (an exec credential plugin, an auth provider's cmd-path), and a
      // key or known-hosts file is read as the user: only files the user can be taken to have chosen.
      const credentialFiles = [t.transport === 'kubectl' ? t.kubeconfig : undefined, t.transport === 'ssh' ? t.privateKeyFile : undefined, t.transport === 'ssh' ? t.knownHostsFile : undefined];
      let kubeconfigMayRun = true;
      for (const f of credentialFiles) {
        if (!f) continue;
        if (await ctx.grants.fromOutside(f, ctx.bundles.locations())) throw new ApiError(`refused: ${path.resolve(f)} came from an upload or a bundle; a kubeconfig, key or known-hosts file must be your own`, 'refused');
        const source = await ctx.grants.credentialSource(f);
        if (!source) throw notYourCredential(path.resolve(f), opts.mode);
        if (f === (t.transport === 'kubectl' ? t.kubeconfig : undefined) && source === 'allowed') kubeconfigMayRun = false;
      }
      // The collection writes a new bundle folder: by default under the app's data folder; elsewhere
      // only under a folder the user allowed on the command line (hnsight serve --allow).
      if (req.outDir && !(await ctx.grants.underRoot(req.outDir))) throw new ApiError(`refused: ${path.resolve(req.outDir)} is not under a folder you allowed; the collection goes to the app's data folder unless hnsight serve --allow names one`, 'refused');
      const started = await collects.start(req, { kubeconfigMayRun });
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
    // The native open dialog's answer is the user's choice: startCollect reads it, and a kubeconfig
    // chosen so may run its exec plugin. Only the path is handled here — the file is not read, and
    // neither it nor its contents is logged.
    pickCredentialFile: async (req) => {
      const dialogs = opts.dialogs;
      if (!dialogs?.pickCredentialFile) throw noCredentialDialog(opts.mode);
      const picked = await dialogs.pickCredentialFile(req);
      if (!picked) return null;
      const p = path.resolve(picked.path);
      ctx.grants.allowCredential(p);
      return { path: p };
    },
  };
}

/** The refusal of a pick where there is no native open dialog (browser mode). */
function noCredentialDialog(mode: 'electron' | 'browser'): ApiError {
  return new ApiError(
    mode === 'browser'
      ? 'refused: the browser has no native open dialog — hnsight serve reads a kubeconfig from ~/.kube/config or $KUBECONFIG, keys and known_hosts from ~/.ssh, or a file under a folder given with hnsight serve --allow DIR (type its path)'
      : 'refused: no open dialog here — hnsight reads a kubeconfig from ~/.kube/config or $KUBECONFIG, keys and known_hosts from ~/.ssh',
    'refused',
  );
}

/** The refusal of a kubeconfig, key or known-hosts file the user did not choose. */
function notYourCredential(p: string, mode: 'electron' | 'browser'): ApiError {
  return new ApiError(
    `refused: ${p} is not a kubeconfig, key or known-hosts file you chose — hnsight uses ~/.kube/config (or $KUBECONFIG), files in ~/.ssh, a file picked in the open dialog${mode === 'browser' ? ', or one under a folder given to hnsight serve --allow' : ''}`,
    'refused',
  );
}
