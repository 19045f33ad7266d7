// Session slice: the backend's info, the bundle being loaded (job + progress) and the bundle open
// (summary, topology, inventory). It also decides the app state the e2e tests and the error screen
// read: loading while the first info/auto-open or any load runs, error when the backend is unreachable
// or the initial bundle failed. The backend loads a bundle once for every window: this window attaches
// to the node it opened (attachBundle, with its id) and lets it go when it opens another; a reloaded
// page asks the backend what is open or loading (listOpen) and takes back what it had, without loading
// it again.
import type { AppInfo, HnsightApi, LoadJob, RecentEntry } from '../../../contract/index.ts';
import type { KeyValueStorage } from './types.ts';
import type { BundleSummary, InventoryTable, TopologyGraph } from '../../../analysis/view-models/types.ts';
import { errorMessage, type AppState, type SliceCreator } from './types.ts';
import { followJob } from '../api/follow-job.ts';
import { tabId } from './tab-id.ts';

export type AppPhase = 'loading' | 'ready' | 'error';

export interface FatalError {
  /**
   * 'backend': info() failed; 'bundle': the bundle opened at start failed; 'access': browser mode's
   * server no longer accepts this tab (restarted on the same port, or a page opened without its token).
   */
  kind: 'backend' | 'bundle' | 'access';
  message: string;
  location?: string;
}

/** What to open: a path, a demo, a dropped file, or a load the backend already started (a paste). */
export type OpenRequest = { path: string } | { demo: 'l2bridge-node' | 'overlay-node' } | { file: File } | { job: { jobId: string; location: string } };

export interface SessionSlice {
  initialized: boolean;
  info?: AppInfo;
  fatal?: FatalError;
  /** The load running now (progress), or the last one that ended. */
  job?: LoadJob;
  bundle?: BundleSummary;
  /** The load summary (views/SummaryDialog.tsx) is shown after each load until dismissed. */
  summaryOpen: boolean;
  recent: RecentEntry[];
  topology?: TopologyGraph;
  topologyExpanded: boolean;
  topologyLoading: boolean;
  topologyError?: string;
  inventory?: InventoryTable[];
  inventoryError?: string;
  init(): Promise<void>;
  open(req: OpenRequest, opts?: { initial?: boolean }): Promise<void>;
  cancelLoad(): Promise<void>;
  closeBundle(): Promise<void>;
  dismissFatal(): void;
  /** The server no longer accepts this tab: every call will fail, so the app says why once. */
  accessLost(message: string): void;
  setSummaryOpen(open: boolean): void;
  loadTopology(expand?: boolean): Promise<void>;
  loadInventory(): Promise<void>;
  refreshRecent(): Promise<void>;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends SessionSlice {}
}

export function appPhase(s: Pick<AppState, 'initialized' | 'job' | 'fatal'>): AppPhase {
  if (!s.initialized) return 'loading';
  if (s.job?.state === 'loading') return 'loading';
  if (s.fatal) return 'error';
  return 'ready';
}

const OPEN_KEY = 'hnsight.open';

/** What this window had open: the node, or the load it waited for. */
interface TabOpen {
  bundleId?: string;
  jobId?: string;
  location?: string;
}

function readOpen(store: KeyValueStorage | undefined): TabOpen {
  try {
    const v = JSON.parse(store?.getItem(OPEN_KEY) ?? '{}') as TabOpen;
    return typeof v === 'object' && v ? v : {};
  } catch {
    return {};
  }
}

export const createSessionSlice: SliceCreator<SessionSlice> = (deps) => (set, get) => {
  // Each open() bumps this; an older load that sees a newer one stops quietly.
  let loadSeq = 0;
  const client = tabId(deps.tabStorage);
  const remember = (o: TabOpen) => deps.tabStorage?.setItem(OPEN_KEY, JSON.stringify(o));

  /** Shows a node this window now has (a load that ended, or a node taken back after a reload). */
  const adopt = (summary: BundleSummary, opts: { showSummary: boolean }) => {
    const previous = get().bundle;
    set({
      bundle: summary,
      summaryOpen: opts.showSummary,
      topology: undefined,
      topologyExpanded: false,
      topologyError: undefined,
      inventory: undefined,
      inventoryError: undefined,
    });
    remember({ bundleId: summary.id });
    get().resetSelection();
    get().resetSearch();
    get().resetWalk();
    get().resetFindings();
    get().resetNotes();
    get().followSearchIndex();
    // Attaching starts the node's checks: their findings are asked for once it is answered.
    const attached = deps.api.attachBundle({ bundleId: summary.id, client });
    void attached.catch(() => undefined);
    if (previous && previous.id !== summary.id) void deps.api.closeBundle({ bundleId: previous.id, client }).catch(() => undefined);
    void get().refreshRecent();
    void get().loadTopology(false);
    void get().loadInventory();
    void get().loadFindings(attached);
    void get().loadTimelines();
    void get().loadPresets();
    void get().loadNotes();
  };

  /** After a reload: the node or the load this window had, when the backend still has it. */
  const takeBack = async (): Promise<boolean> => {
    const had = readOpen(deps.tabStorage);
    if (!had.bundleId && !had.jobId) return false;
    let open: Awaited<ReturnType<HnsightApi['listOpen']>>;
    try {
      open = await deps.api.listOpen({});
    } catch {
      return false;
    }
    if (had.bundleId && open.bundles.some((b) => b.bundleId === had.bundleId)) {
      try {
        adopt(await deps.api.attachBundle({ bundleId: had.bundleId, client }), { showSummary: false });
        return true;
      } catch {
        return false;
      }
    }
    const load = had.jobId ? open.loads.find((j) => j.jobId === had.jobId) : undefined;
    if (load) {
      await get().open({ job: { jobId: load.jobId, location: load.location } });
      return true;
    }
    return false;
  };

  const startJob = async (req: OpenRequest): Promise<string> => {
    if ('path' in req) return (await deps.api.openBundle({ path: req.path })).jobId;
    if ('demo' in req) return (await deps.api.openDemo({ name: req.demo })).jobId;
    if ('job' in req) return req.job.jobId;
    return (await deps.api.openFile(req.file)).jobId;
  };

  const describe = (req: OpenRequest) => ('path' in req ? req.path : 'demo' in req ? req.demo : 'job' in req ? req.job.location : req.file.name);

  return {
    initialized: false,
    summaryOpen: false,
    recent: [],
    topologyExpanded: false,
    topologyLoading: false,

    async init() {
      set({ initialized: false, fatal: undefined });
      let info: AppInfo;
      try {
        info = await deps.api.info({});
      } catch (e) {
        // A refused token was already said in words (accessLost): keep that.
        if (get().fatal?.kind === 'access') set({ initialized: true });
        else set({ initialized: true, fatal: { kind: 'backend', message: `The hnsight backend cannot be reached: ${errorMessage(e)}` } });
        return;
      }
      set({ info });
      void get().refreshRecent();
      // Stay in 'loading' through the auto-open so the first 'ready' already shows the bundle. A
      // reloaded page takes back what it had; the backend answers a bundle it has open at once.
      const tookBack = !get().bundle && (await takeBack());
      if (!tookBack && info.initialBundle && !get().bundle) await get().open({ path: info.initialBundle }, { initial: true });
      set({ initialized: true });
    },

    async open(req, opts = {}) {
      // Edits waiting for the autosave go to the bundle they were made on.
      if (get().bundle) void get().flushNotes();
      const seq = ++loadSeq;
      const location = describe(req);
      const placeholder: LoadJob = {
        jobId: '',
        state: 'loading',
        location,
        progress: { phase: 'listing', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 },
      };
      set({ job: placeholder, fatal: undefined });
      const fail = (message: string) => {
        if (seq !== loadSeq) return;
        set({ job: { ...(get().job ?? placeholder), state: 'error', error: message } });
        if (get().fatal?.kind === 'access') return;
        if (opts.initial) set({ fatal: { kind: 'bundle', message, location } });
        else get().toast('error', message);
      };
      let jobId: string;
      try {
        jobId = await startJob(req);
      } catch (e) {
        fail(errorMessage(e));
        return;
      }
      if (seq === loadSeq) remember({ ...readOpen(deps.tabStorage), jobId, location });
      let state: LoadJob;
      try {
        state = await followJob({
          api: deps.api,
          type: 'load',
          jobId,
          fetch: () => deps.api.getJob({ jobId }),
          onState: (j) => set({ job: j }),
          isFinal: (j) => j.state !== 'loading',
          wanted: () => seq === loadSeq,
        });
      } catch (e) {
        fail(`lost track of the load: ${errorMessage(e)}`);
        return;
      }
      if (seq !== loadSeq) return;
      if (state.state === 'done' && state.summary) {
        adopt(state.summary, { showSummary: true });
        return;
      }
      if (state.state === 'error') return fail(state.error ?? `could not load ${location}`);
      if (state.state === 'cancelled') get().toast('info', `Stopped loading ${location}.`);
    },

    async cancelLoad() {
      const job = get().job;
      if (!job || job.state !== 'loading') return;
      if (!job.jobId) {
        // The backend has not answered with a job id yet: forget the request instead.
        loadSeq++;
        set({ job: { ...job, state: 'cancelled' } });
        return;
      }
      try {
        await deps.api.cancelLoad({ jobId: job.jobId });
      } catch (e) {
        get().toast('error', `Could not cancel: ${errorMessage(e)}`);
      }
    },

    async closeBundle() {
      if (get().bundle) await get().flushNotes();
      const b = get().bundle;
      loadSeq++;
      set({ bundle: undefined, job: undefined, topology: undefined, inventory: undefined, summaryOpen: false, fatal: undefined });
      remember({});
      get().resetSelection();
      get().resetSearch();
      get().resetWalk();
      get().resetFindings();
      get().resetNotes();
      if (b) await deps.api.closeBundle({ bundleId: b.id, client }).catch(() => undefined);
      void get().refreshRecent();
    },

    dismissFatal() {
      set({ fatal: undefined, job: undefined });
    },

    accessLost(message) {
      // Said once: the calls that fail after it would only repeat it.
      if (get().fatal?.kind === 'access') return;
      set({ fatal: { kind: 'access', message }, summaryOpen: false, paletteOpen: false, exportOpen: false, keymapOpen: false, openPathOpen: false });
    },

    setSummaryOpen(open) {
      set({ summaryOpen: open });
    },

    async loadTopology(expand = get().topologyExpanded) {
      const b = get().bundle;
      if (!b) return;
      set({ topologyLoading: true, topologyError: undefined, topologyExpanded: expand });
      try {
        const g = await deps.api.getTopology({ bundleId: b.id, expandLoadBalancers: expand });
        if (get().bundle?.id !== b.id) return;
        set({ topology: g, topologyLoading: false });
      } catch (e) {
        if (get().bundle?.id !== b.id) return;
        set({ topologyLoading: false, topologyError: errorMessage(e) });
      }
    },

    async loadInventory() {
      const b = get().bundle;
      if (!b) return;
      try {
        const inv = await deps.api.getInventory({ bundleId: b.id });
        if (get().bundle?.id === b.id) set({ inventory: inv, inventoryError: undefined });
      } catch (e) {
        if (get().bundle?.id === b.id) set({ inventoryError: errorMessage(e) });
      }
    },

    async refreshRecent() {
      try {
        set({ recent: await deps.api.listRecent({}) });
      } catch {
        // The recent list is a convenience; failing to read it is not worth a toast.
      }
    },
  };
};
