// The Connect to node… dialog's store: the form (no secrets), saved targets, the running collection
// (followed through its 'collect' events), cancel, and opening the result. A store of its own (not a slice of the
// app store) with its dependencies passed in, so unit tests drive it with a fake API and no DOM.
//
// The password is never part of this state: start(password) hands it to startCollect and drops it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CollectJob, HnsightApi, SavedTarget } from '../../../contract/index.ts';
import { followJob } from '../api/follow-job.ts';
import { CREDENTIAL_FIELDS, EMPTY_FORM, canOpen, formFromTarget, isFinished, matchingSaved, passwordNeed, problemCommands, targetFromForm, withCredentialFile, type ConnectForm, type CredentialKind, type FieldErrors } from '../components/connect-form.ts';
import { plural } from '../lib/format.ts';

export interface CollectDeps {
  api: Pick<HnsightApi, 'startCollect' | 'getCollectJob' | 'cancelCollect' | 'listSavedTargets' | 'forgetTarget' | 'pickCredentialFile' | 'subscribe'>;
  /** Opens a bundle folder in the app (the session store's open). */
  openBundle(path: string): Promise<void> | void;
  /** A notice outside the dialog (the app's toasts). */
  toast?(kind: 'info' | 'success' | 'error', message: string): void;
}

export interface CollectState {
  open: boolean;
  form: ConnectForm;
  remember: boolean;
  saved: SavedTarget[];
  fieldErrors: FieldErrors;
  /** startCollect sent, no job id yet. */
  starting: boolean;
  /** Why the collection could not start (validation, remembering refused, …). */
  startError?: string;
  job?: CollectJob;
  /** The result was opened in the app. */
  opened: boolean;

  openDialog(): void;
  close(): void;
  setForm(patch: (f: ConnectForm) => ConnectForm): void;
  setRemember(v: boolean): void;
  loadSaved(): Promise<void>;
  useSaved(key: string): void;
  forget(key: string, passwordOnly?: boolean): Promise<void>;
  /**
   * Browse… next to a kubeconfig, key or known_hosts field: the native open dialog (pickCredentialFile),
   * whose answer fills the field and is then one startCollect accepts. Cancelled: nothing changes;
   * refused (browser mode): the reason under the field.
   */
  browse(kind: CredentialKind): Promise<void>;
  /** Starts a collection. The password is passed through to the backend, never kept. */
  start(password: string): Promise<void>;
  cancel(): Promise<void>;
  openResult(): Promise<void>;
  /** Back to the form after a result (the form keeps its fields; the password field is empty). */
  again(): void;
}

export function createCollectStore(deps: CollectDeps): StoreApi<CollectState> {
  let pollSeq = 0;
  return createStore<CollectState>()((set, get) => {
    const err = (e: unknown) => (e instanceof Error ? e.message : String(e));

    async function follow(jobId: string, seq: number): Promise<void> {
      let j: CollectJob;
      try {
        j = await followJob({
          api: deps.api,
          type: 'collect',
          jobId,
          fetch: () => deps.api.getCollectJob({ jobId }),
          onState: (s) => set({ job: s }),
          isFinal: isFinished,
          wanted: () => seq === pollSeq,
        });
      } catch (e) {
        if (seq === pollSeq) set({ startError: `lost track of the collection: ${err(e)}` });
        return;
      }
      if (seq === pollSeq && isFinished(j)) await finished(j);
    }

    async function finished(j: CollectJob): Promise<void> {
      void get().loadSaved();
      if (j.state === 'done') {
        // Everything came: straight to the bundle (its summary is the result).
        set({ open: false });
        deps.toast?.('success', `Collected ${plural(j.commands.length, 'file')} from ${j.target} into ${j.outDir}`);
        await get().openResult();
      } else if (j.state === 'partial') {
        // Open it behind the dialog, which lists what is missing until the user closes it.
        await get().openResult();
      }
    }

    return {
      open: false,
      form: EMPTY_FORM,
      remember: false,
      saved: [],
      fieldErrors: {},
      starting: false,
      opened: false,

      openDialog() {
        const j = get().job;
        // A running collection stays on screen; a finished one gives way to the form.
        if (j && isFinished(j)) set({ job: undefined, startError: undefined, opened: false });
        set({ open: true });
        void get().loadSaved();
      },

      close() {
        set({ open: false });
      },

      setForm(patch) {
        const form = patch(get().form);
        const saved = matchingSaved(form, get().saved);
        set({ form, fieldErrors: {}, startError: undefined, ...(saved ? { remember: saved.passwordRemembered } : {}) });
      },

      setRemember(v) {
        set({ remember: v });
      },

      async loadSaved() {
        try {
          set({ saved: await deps.api.listSavedTargets({}) });
        } catch {
          // not worth an error: the list is a convenience
        }
      },

      useSaved(key) {
        const s = get().saved.find((t) => t.key === key);
        if (!s) return;
        set({ form: formFromTarget(s.target, get().form), remember: s.passwordRemembered, fieldErrors: {}, startError: undefined });
      },

      async forget(key, passwordOnly = false) {
        try {
          await deps.api.forgetTarget({ key, passwordOnly });
        } catch (e) {
          set({ startError: `could not forget it: ${err(e)}` });
        }
        await get().loadSaved();
        if (passwordOnly) set({ remember: false });
      },

      async browse(kind) {
        const errorKey = CREDENTIAL_FIELDS[kind].field;
        let picked: { path: string } | null;
        try {
          picked = await deps.api.pickCredentialFile({ kind });
        } catch (e) {
          set({ fieldErrors: { ...get().fieldErrors, [errorKey]: err(e) } });
          return;
        }
        if (picked) get().setForm((f) => withCredentialFile(f, kind, picked.path));
      },

      async start(password) {
        const { form, remember, saved } = get();
        const r = targetFromForm(form);
        if (!r.target) {
          set({ fieldErrors: r.errors });
          return;
        }
        const known = matchingSaved(form, saved);
        if (!password && passwordNeed(form) === 'required' && !known?.passwordRemembered) {
          set({ fieldErrors: { password: 'the password for this user' } });
          return;
        }
        const seq = ++pollSeq;
        set({ starting: true, startError: undefined, fieldErrors: {}, job: undefined, opened: false });
        let jobId: string;
        try {
          const req: Parameters<CollectDeps['api']['startCollect']>[0] = { target: r.target };
          if (password) req.password = password;
          if (remember) req.remember = true;
          // Unticked while a password is remembered for this target: forget it.
          else if (known?.passwordRemembered) req.remember = false;
          ({ jobId } = await deps.api.startCollect(req));
        } catch (e) {
          if (seq === pollSeq) set({ starting: false, startError: err(e) });
          return;
        }
        if (seq !== pollSeq) return;
        set({ starting: false });
        await follow(jobId, seq);
      },

      async cancel() {
        const j = get().job;
        if (!j || isFinished(j)) return;
        try {
          await deps.api.cancelCollect({ jobId: j.jobId });
        } catch (e) {
          set({ startError: `could not cancel: ${err(e)}` });
        }
      },

      async openResult() {
        const j = get().job;
        if (!j || !canOpen(j) || get().opened) return;
        set({ opened: true });
        // The dialog lists what is missing while it is open; closed, a notice says it.
        if (j.state !== 'done' && !get().open) {
          const bad = problemCommands(j);
          if (bad.length) deps.toast?.('info', `${j.outDir}: ${bad.length} of ${j.total} commands did not complete (${bad.map((c) => c.file).join(', ')}).`);
        }
        await deps.openBundle(j.outDir);
      },

      again() {
        pollSeq++;
        set({ job: undefined, startError: undefined, opened: false, starting: false });
      },
    };
  });
}
