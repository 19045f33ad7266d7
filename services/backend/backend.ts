// The backend every shell uses (the Electron main process, `hnsight serve`, the CLI): its stores,
// the handlers of every method of the contract (one file per domain under handlers/), the one typed
// dispatch that validates each request once, and the job events. Plain Node.
import { unwrap, type ApiEventListener, type Envelope, type LoadJob, type Method, type Request, type Response } from '../../contract/index.ts';
import type { Flow } from '../../analysis/walk/types.ts';
import { reportHtml } from '../export/export.ts';
import { NotesStore } from '../notes/index.ts';
import { RecentStore } from '../recent.ts';
import { SavedTargetStore } from '../live/saved-targets.ts';
import { CollectJobs } from '../live/collect-jobs.ts';
import { EventBus } from './event-bus.ts';
import { OpenBundles } from './open-bundles.ts';
import { Grants } from './grants.ts';
import { DEFAULT_DEMO_DIR } from './demo-dir.ts';
import { LoadJobs } from './load-jobs.ts';
import { DiffJobs } from './diff-jobs.ts';
import { createDispatcher, type Dispatcher, type Handlers } from './dispatch.ts';
import type { BackendContext, BackendOptions } from './context.ts';
import { bundleHandlers, rememberRefusal } from './handlers/bundle.ts';
import { walkHandlers } from './handlers/walk.ts';
import { findingsHandlers } from './handlers/findings.ts';
import { servicesHandlers } from './handlers/services.ts';
import { notesHandlers, notesIdentity } from './handlers/notes.ts';
import { exportHandlers } from './handlers/export.ts';
import { diffHandlers } from './handlers/diff.ts';
import { liveHandlers } from './handlers/live.ts';
import { pasteHandlers } from './handlers/paste.ts';
import { openHandlers } from './handlers/open.ts';
import { clusterHandlers } from './handlers/cluster.ts';
import { reachHandlers } from './handlers/reach.ts';
import { ReachDiffs } from './reach-diffs.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';
import { setWorkerBundleLog } from '../worker-entry/ensure-bundle.ts';

export type { BackendOptions, Dialogs } from './context.ts';
export type { SecretStore } from './secret-store.ts';

export class Backend {
  private readonly ctx: BackendContext;
  private readonly dispatch: Dispatcher;
  private readonly reachDiffs: ReachDiffs;

  constructor(opts: BackendOptions) {
    // A worker bundle that cannot be built says so once on the log (its workers run through tsx).
    if (opts.log) setWorkerBundleLog(opts.log);
    const events = new EventBus();
    const bundles = new OpenBundles(events);
    const recent = new RecentStore(opts.dataDir);
    const savedTargets = new SavedTargetStore(opts.dataDir);
    // Browser mode's Open path… takes the shipped demos too (the desktop app opens them from its menu).
    const grants = new Grants(opts.allowedRoots, opts.mode === 'browser' ? [opts.demoDir ?? DEFAULT_DEMO_DIR] : []);
    if (opts.initialBundle) grants.allowOpen(opts.initialBundle);
    if (opts.initialCluster) grants.allowOpen(opts.initialCluster);
    const ctx: BackendContext = {
      opts,
      events,
      bundles,
      recent,
      savedTargets,
      grants,
      notes: new NotesStore(opts.dataDir),
      loads: new LoadJobs(bundles, events, recent),
      diffs: new DiffJobs(events),
      collects: new CollectJobs({ dataDir: opts.dataDir, events, savedTargets, secretStore: opts.secretStore, rememberRefusal: () => rememberRefusal(ctx) }),
    };
    this.ctx = ctx;
    this.reachDiffs = new ReachDiffs(events, { maxMs: ANALYSIS_BUDGET.maxMs ?? 30_000 });
    // Typed as Handlers: a method without a handler, or a handler whose request or reply does not
    // fit the contract, does not compile.
    const handlers: Handlers = {
      ...bundleHandlers(ctx),
      ...walkHandlers(ctx),
      ...findingsHandlers(ctx),
      ...servicesHandlers(ctx),
      ...notesHandlers(ctx),
      ...exportHandlers(ctx),
      ...diffHandlers(ctx),
      ...liveHandlers(ctx),
      ...pasteHandlers(ctx),
      ...openHandlers(ctx),
      ...clusterHandlers(ctx),
      ...reachHandlers(ctx, this.reachDiffs),
    };
    this.dispatch = createDispatcher(handlers, { log: opts.log });
  }

  /**
   * Ends every worker the backend started (each open bundle's, a comparison's reachability kept for
   * its walks): a server that stops must not stay alive behind them.
   */
  close(): void {
    this.reachDiffs.close();
    for (const b of this.ctx.bundles.list()) this.ctx.bundles.close(b.id);
  }

  /** Validates and runs one call of the contract; never throws. */
  call(method: string, body: unknown): Promise<Envelope> {
    return this.dispatch(method, body);
  }

  /** One call with its reply unwrapped: the value, or an ApiError (CLI, tests). */
  async invoke<M extends Method>(method: M, req: Request<M>): Promise<Response<M>> {
    return unwrap<Response<M>>(method, await this.dispatch(method, req));
  }

  /** Follows the job events (IPC forwarding, Server-Sent Events). */
  onEvent(listener: ApiEventListener): () => void {
    return this.ctx.events.on(listener);
  }

  get recent(): RecentStore {
    return this.ctx.recent;
  }

  get notes(): NotesStore {
    return this.ctx.notes;
  }

  /**
   * The user chose this bundle outside the page: a path the OS handed the desktop shell (a second
   * launch's command line, a file opened from Finder). The page may then open it.
   */
  allowOpen(location: string): void {
    this.ctx.grants.allowOpen(location);
  }

  /** A folder of files that came from outside (the server's uploads): no credential file is read from it. */
  distrust(dir: string): void {
    this.ctx.grants.distrust(dir);
  }

  /** Follows the locations no open bundle uses any more (closed, pushed out, or never loaded). */
  onBundleReleased(listener: (location: string) => void): () => void {
    return this.ctx.bundles.onReleased(listener);
  }

  /** Starts loading a path the server itself chose (an upload it saved); the reply of openBundle. */
  startLoad(location: string, opts: { remember?: boolean } = {}): { jobId: string } {
    return this.ctx.loads.start(location, opts);
  }

  /** Resolves with a load job's final state (CLI, tests). */
  waitForLoad(jobId: string): Promise<LoadJob> {
    return this.ctx.loads.waitFor(jobId);
  }

  /** The report's HTML for a bundle, with its saved notes (the Electron shell prints it with printToPDF). */
  async reportHtml(bundleId: string, traces: Flow[], redact: boolean): Promise<string> {
    const b = this.ctx.bundles.get(bundleId);
    const notes = await this.ctx.notes.get(await notesIdentity(b));
    return reportHtml(b.model, { flows: traces, notes, redact, findings: await this.ctx.bundles.findings(b), generatedAt: new Date().toISOString() });
  }
}
