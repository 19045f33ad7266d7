// The reachability matrix of one open node, worked out progressively in a worker thread
// (reach-worker-main.ts): every cell is a walk and its reply, seconds on a mid-size node and hours on
// a node with 250 pods and 2,000 Services, which on the backend's one event loop would hold every
// other request. The worker rebuilds the node from what it was read from (findings-runner.ts says why
// that beats sending it over), sends the sources and destinations first, then the cells as they are
// walked; the session keeps them, and a window asks for the cells it does not have yet (`snapshot`).
// A first pass is bounded (cells, time); the user asks for more (`compute`: a row, a group) and can
// stop what is queued (`cancel`). A worker holds a whole node (≈ 240 MiB on the 250-pod node, issue
// #27 point 2): once idle it keeps it a while (`releaseAfterMs`, cells asked for soon start at once),
// then ends; the sources, destinations and cells stay here, and cells asked for later start a worker
// again that is told which cells are done and walks only what is asked.
//
// The worker starts once the node's checks have ended (issue #27 point 2: the findings' worker and
// this one never hold a node each at once). Its walks wait for the findings anyway (they name the
// findings on each path), so no cell comes later for it; the rows and columns, which the worker used
// to send while the checks ran, are worked out here from the server's own node (`ends`), at once.
import { Worker } from 'node:worker_threads';
import { WALK_WORKER_LIMITS, WORKER_HEAP_MB } from './worker-limits.ts';
import { ApiError, type BundleStep } from '../../contract/index.ts';
import type { HandedFile } from './revive-node.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import type { ReachCellView, ReachSnapshot } from '../../analysis/view-models/reach-data.ts';
import type { BundleOrigin } from '../bundle/origin.ts';
import type { EventBus } from './event-bus.ts';
import type { ReachEnds } from './reach-ends.ts';
import { collectNow } from './heap-trim.ts';
import type { ReachIn, ReachOut } from './reach-protocol.ts';
import { workerEntry } from '../worker-entry/ensure-bundle.ts';

/** Cells a first pass walks at most: 250 pods × a few hundred destinations. */
export const VIEW_MAX_CELLS = 100_000;

/**
 * The first pass's cell bound: VIEW_MAX_CELLS, or HNSIGHT_REACH_FIRST_CELLS (a smaller first pass on a
 * slow machine, a bigger one on a fast one; the e2e tests use it to leave cells to ask for).
 */
export function firstPassCells(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.HNSIGHT_REACH_FIRST_CELLS);
  return Number.isInteger(n) && n > 0 ? n : VIEW_MAX_CELLS;
}
/** Cells one request of the user may ask for (a group of 2,000 Services × a few rows). */
export const ASK_MAX_CELLS = 20_000;
/** How long an idle worker keeps its node before it ends (the next request reads the node again). */
export const RELEASE_AFTER_MS = 60_000;

export const REACH_NOTE =
  'Destinations: every local pod (on the ports its Services target, else a ping), every Service port, one address per remote pod subnet, the node and the outside. Each cell is the walk of one example packet and its reply.';

/** Said on a dual-stack node, after REACH_NOTE. */
export const REACH_NOTE_V6 =
  'On this dual-stack node the IPv6 address of each pod and of the host is a source of its own, walked against the IPv6 destinations (the pods\' IPv6 addresses, the IPv6 Services, remote endpoints, the node and the outside); a packet keeps its family, so the cells between an IPv4 address and an IPv6 one stay empty.';

export interface ReachSessionOptions {
  origin: BundleOrigin;
  reuse: HandedFile[];
  /** The node's findings (they name what each path crosses); a rejection leaves them out. */
  findings: () => Promise<FindingView[]>;
  /** Bounds of the first pass and of each request: most cells, and ms of walks. */
  maxCells: number;
  maxMs: number;
  workerUrl?: URL;
  /** How long an idle worker keeps its node (default RELEASE_AFTER_MS). */
  releaseAfterMs?: number;
  /**
   * The rows and columns from the server's own node (reach-ends.ts), shown before the worker starts.
   * Absent (or failing): the worker's, once it has read the node.
   */
  ends?: () => ReachEnds;
}

export class ReachSession {
  private current: BundleStep;
  private worker?: Worker;
  private ends?: Promise<ReachEnds>;
  /** The first worker waits for the checks to end: what is asked meanwhile is posted once it starts. */
  private waiting?: ReachIn[];
  private cells: ReachCellView[] = [];
  private notes: { first?: string; asked?: string } = {};
  private running = false;
  private closed = false;
  private releaseTimer?: ReturnType<typeof setTimeout>;
  /** Workers started, the first included (a test tells a worker started again from one kept). */
  workersStarted = 0;
  /** The time of the collection run before the last worker started (undefined: none could run). */
  lastCollectionMs?: number;

  constructor(
    bundleId: string,
    private readonly events: EventBus | undefined,
    private readonly opts: ReachSessionOptions,
  ) {
    this.current = { jobId: `${bundleId}:reach`, bundleId, step: 'reach', state: 'waiting' };
  }

  get state(): BundleStep {
    return this.current;
  }

  /**
   * What is worked out, from cell `from` on; starts the worker the first time. It waits for the sources
   * and destinations at most `waitMs`: a request must not stay silent longer than browser mode's idle
   * socket timeout (30 s), and a big node takes longer to read. Not ready yet: `ready: false`, and a
   * step event follows when they are known.
   */
  async snapshot(from = 0, waitMs = 10_000): Promise<ReachSnapshot> {
    const ends = await Promise.race([this.start(), new Promise<undefined>((r) => setTimeout(r, waitMs))]);
    if (!ends) return { sources: [], destinations: [], cells: [], notes: [], from: 0, count: 0, running: true, ready: false };
    const v6 = ends.sources.some((x) => x.family === 6);
    const notes = [...(ends.notes ?? []), REACH_NOTE, ...(v6 ? [REACH_NOTE_V6] : []), ...(this.notes.first ? [this.notes.first] : []), ...(this.notes.asked ? [this.notes.asked] : [])];
    const at = Math.max(0, Math.min(from, this.cells.length));
    return { sources: ends.sources, destinations: ends.destinations, cells: this.cells.slice(at), notes, from: at, count: this.cells.length, running: this.running, ready: true };
  }

  /** Queues every listed source against every listed destination (those not worked out yet), before the rest. */
  async compute(sources: number[], destinations: number[]): Promise<{ queued: number }> {
    const ends = await this.start();
    const s = [...new Set(sources)].filter((i) => i >= 0 && i < ends.sources.length);
    const d = [...new Set(destinations)].filter((i) => i >= 0 && i < ends.destinations.length);
    if (s.length * d.length > ASK_MAX_CELLS)
      throw new ApiError(`That is ${(s.length * d.length).toLocaleString('en-US')} cells; ask for at most ${ASK_MAX_CELLS.toLocaleString('en-US')} at once (a row, or a group of rows, against a group).`, 'invalid');
    this.running = true;
    this.set({ ...this.current, state: 'running', error: undefined });
    // The worker let its node go while idle: another one, told which cells are done.
    if (!this.worker && !this.waiting) this.spawn(undefined, { done: this.cells.map((c) => c.s * ends.destinations.length + c.d) });
    this.post({ type: 'compute', sources: s, destinations: d });
    return { queued: s.length * d.length };
  }

  /** The user's Cancel: what is queued is dropped; the cells worked out stay. */
  cancel(): void {
    this.post({ type: 'stop' });
  }

  /** The node is closed: the worker ends. */
  close(): void {
    this.closed = true;
    this.release();
  }

  /** Whether a worker (and so a node of its own) is alive. */
  get holdsNode(): boolean {
    return this.worker !== undefined;
  }

  private post(m: ReachIn): void {
    if (this.waiting) this.waiting.push(m);
    else this.worker?.postMessage(m);
  }

  /** Ends the worker; what it worked out stays (its exit is no failure: it is no longer this.worker). */
  private release(): void {
    clearTimeout(this.releaseTimer);
    this.waiting = undefined;
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }

  private start(): Promise<ReachEnds> {
    if (this.closed) return Promise.reject(new ApiError('the node was closed (replaced or let go) while this was being worked out', 'not-found'));
    if (this.ends) return this.ends;
    this.cells = [];
    this.notes = {};
    this.running = true;
    this.set({ ...this.current, state: 'running', progress: { done: 0, total: 0, what: 'waiting for the checks (they name the findings on each path)' }, error: undefined, ms: undefined });
    const own = this.ownEnds();
    const waiting: ReachIn[] = [];
    this.waiting = waiting;
    const ends = new Promise<ReachEnds>((resolve, reject) => {
      if (own) resolve(own);
      // The worker starts when the checks have ended (a failed run leaves the findings out).
      void this.opts
        .findings()
        .catch(() => [] as FindingView[])
        .then((f) => {
          if (this.closed || this.waiting !== waiting) return;
          this.waiting = undefined;
          this.spawn({ resolve, reject, own }, undefined, f);
          for (const m of waiting) this.post(m);
        });
    });
    // Nobody may be waiting when it fails (a snapshot that answered "not ready"): the step says why.
    ends.catch(() => undefined);
    this.ends = ends;
    return ends;
  }

  /**
   * Starts a worker: the first (`first` gets the sources and destinations), or one started again after
   * the last let its node go (`resume`: the cells done; it waits for what is asked).
   */
  private spawn(first?: { resolve(e: ReachEnds): void; reject(e: Error): void; own?: ReachEnds }, resume?: { done: number[] }, findings?: FindingView[]): void {
    const t0 = performance.now();
    // The garbage this thread left (walks, the inspector, exports) is freed before the heaviest worker
    // adds its heap (issue #27 point 2; heap-trim.ts): V8 collects it lazily, often not before the
    // first pass. One full collection, ≈ 0.1–0.3 s of the event loop on the 250-pod node.
    this.lastCollectionMs = collectNow();
    if (process.env.HNSIGHT_HEAP_TRIM_LOG === '1') process.stderr.write(`server thread: a collection before the reachability worker, ${Math.round(this.lastCollectionMs ?? -1)} ms\n`);
    const w = new Worker(workerEntry(this.opts.workerUrl ?? new URL('./reach-worker.mjs', import.meta.url)), { resourceLimits: WALK_WORKER_LIMITS });
    this.worker = w;
    this.workersStarted++;
    // A worker that fails (out of memory, a bug) is started again the next time the view asks.
    const fail = (message: string) => {
      if (this.worker !== w) return;
      clearTimeout(this.releaseTimer);
      this.worker = undefined;
      this.ends = undefined;
      this.running = false;
      void w.terminate();
      first?.reject(new Error(message));
      this.set({ ...this.current, state: 'error', progress: undefined, error: message });
    };
    w.on('message', (m: ReachOut) => {
      if (this.worker !== w) return;
      switch (m.type) {
        case 'ends':
          // The server's node gave the same rows (the revived node is the same node,
          // test/unit/services/worker-handover.test.ts); should they ever differ, the worker's are the ones
          // its cells index, so they replace them before any cell.
          if (first?.own && !sameEnds(first.own, m)) this.ends = Promise.resolve({ sources: m.sources, destinations: m.destinations });
          first?.resolve({ sources: m.sources, destinations: m.destinations });
          // Windows that were told "not ready" ask again at this event.
          this.set({ ...this.current, state: 'running', progress: { done: 0, total: 0, what: 'the sources and destinations are known' } });
          return;
        case 'cells':
          this.cells.push(...m.cells);
          return;
        case 'progress':
          this.set({ ...this.current, state: 'running', progress: { done: m.done, total: m.total, what: m.what } }, true);
          return;
        case 'batch-done':
          this.notes[m.kind] = m.note;
          return;
        case 'idle': {
          this.running = false;
          this.set({ ...this.current, state: 'done', progress: undefined, ms: Math.round(performance.now() - t0) });
          // Nothing left to walk: the node is let go after a while (a request meanwhile keeps it).
          clearTimeout(this.releaseTimer);
          this.releaseTimer = setTimeout(() => this.worker === w && !this.running && this.release(), this.opts.releaseAfterMs ?? RELEASE_AFTER_MS);
          this.releaseTimer.unref?.();
          return;
        }
        case 'error':
          fail(m.message);
      }
    });
    w.on('error', (e: Error & { code?: string }) => fail(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `the reachability ran out of memory (more than ${WORKER_HEAP_MB} MB)` : e.message));
    w.on('exit', (code) => fail(`the reachability stopped unexpectedly (exit code ${code})`));
    w.postMessage({ type: 'start', origin: this.opts.origin, reuse: this.opts.reuse, maxCells: this.opts.maxCells, maxMs: this.opts.maxMs, ...(resume ? { resume } : {}) } satisfies ReachIn);
    if (findings) {
      w.postMessage({ type: 'findings', findings } satisfies ReachIn);
      return;
    }
    // Walks wait for the findings; a failed run of the checks leaves them out.
    void this.opts
      .findings()
      .catch(() => [] as FindingView[])
      .then((f) => this.worker === w && w.postMessage({ type: 'findings', findings: f } satisfies ReachIn));
  }

  /** The rows and columns from the server's node, or undefined (none given, or they failed: the worker's then). */
  private ownEnds(): ReachEnds | undefined {
    try {
      return this.opts.ends?.();
    } catch {
      return undefined;
    }
  }

  private set(next: BundleStep, progress = false): void {
    if (this.closed) return;
    this.current = next;
    if (!this.events) return;
    if (progress) this.events.progress({ type: 'step', job: next });
    else this.events.emit({ type: 'step', job: next });
  }
}

function sameEnds(a: ReachEnds, b: ReachEnds): boolean {
  return JSON.stringify(a.sources) === JSON.stringify(b.sources) && JSON.stringify(a.destinations) === JSON.stringify(b.destinations);
}
