// The bundles open in this backend, each with what is built from it once and then kept: the summary,
// the search index, the topology, the findings, the excerpt reader, the notes identity. One bundle is
// one node for every window and request: a second open of the same files attaches to it (load-jobs.ts),
// and windows that attached (attachBundle) hold it until each lets it go. The findings and the search
// index are steps (bundle-step-runner.ts) with progress and errors of their own; the checks run in a
// worker thread (findings-runner.ts).
import { reuseForWorkers, type HandedFile } from './revive-node.ts';
import { releaseNode } from '../bundle/memory-budget.ts';
import { ApiError, type BundleStep } from '../../contract/index.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { BundleSummary, TopologyGraph } from '../../analysis/view-models/types.ts';
import type { FindingView } from '../../analysis/findings/types.ts';
import type { ServicesTableView } from '../../analysis/view-models/services-table.ts';
import type { SandboxTimeline } from '../../analysis/timeline/index.ts';
import { ExcerptReader } from '../excerpt.ts';
import { diskOrigin, openOrigin, type BundleOrigin } from '../bundle/origin.ts';
import type { EventBus } from './event-bus.ts';
import { BundleStepRunner } from './bundle-step-runner.ts';
import { runFindings } from './findings-runner.ts';
import { runServices } from './services-runner.ts';
import { buildBundleSearch, type BundleSearch } from './bundle-search.ts';
import { ReachSession, firstPassCells } from './reach-session.ts';
import { reachEndsOf } from './reach-ends.ts';
import { ANALYSIS_BUDGET } from '../analysis-budget.ts';

const MAX_OPEN = 4;

export interface OpenBundle {
  id: string;
  model: NodeModel;
  summary: BundleSummary;
  /** What it was read from: read again for excerpts and notes, and joined with the next paste. */
  origin: BundleOrigin;
  /** The files it was read from, as bundle-identity.ts tells them apart (absent: never shared). */
  identity?: string;
  /** The load job that opened it. */
  jobId: string;
  excerpts: ExcerptReader;
  topology?: Map<string, TopologyGraph>;
  timelines?: SandboxTimeline[];
  /** Windows (attachBundle's client ids) using it. */
  holders: Set<string>;
  findings: BundleStepRunner<FindingView[]>;
  search: BundleStepRunner<BundleSearch>;
  /** The reachability matrix, worked out progressively (started when first asked for: the Reachability view). */
  reach: ReachSession;
  /** The Services table (handlers/services.ts), worked out in a worker when first asked for (services-runner.ts). */
  services: BundleStepRunner<ServicesTableView>;
  /** Identity of the bundle for its notes (computed on first use). */
  hash?: Promise<string>;
}

export interface AddOptions {
  identity?: string;
  jobId?: string;
  /** Files the load parsed that the workers take over instead of parsing them again (revive-node.ts). */
  reuse?: HandedFile[];
}

/**
 * Rules of parsed ports the server's node keeps (the loader's default is 50,000, ≈ 170 MiB at ≈ 3.4 KB
 * a parsed rule). The server parses a port for a walk or the inspector, and the page has the answer;
 * what the node keeps is only for the next request on the same port. 16,000 rules keeps a walk's ports
 * on a pod-dense node (source, destination, uplink: ≈ 4,000 rules each on the 250-pod node) — the
 * inspector's busiest port is kept alone, however large. Measured on that node (test/bench/
 * server-memory.ts --threads, docs/performance.md "The server's peak after the page's requests"):
 * the server's thread held 134 → 107 MiB after the collection before the reachability worker. The
 * collections before the Services and reachability workers (heap-trim.ts collectNow) are what make
 * the bound pay: without them the ports parsed again were garbage still there at the peak.
 */
export const SERVER_PORT_CACHE_RULES = 16_000;

export class OpenBundles {
  private byId = new Map<string, OpenBundle>();
  private released = new Set<(location: string) => void>();

  constructor(private readonly events?: EventBus) {}

  add(id: string, model: NodeModel, summary: BundleSummary, origin: BundleOrigin = diskOrigin(model.source.location), opts: AddOptions = {}): OpenBundle {
    const reuse = reuseForWorkers(opts.reuse ?? []);
    if (model.vfp) model.vfp.cacheRules = Math.min(model.vfp.cacheRules, SERVER_PORT_CACHE_RULES);
    const b: OpenBundle = {
      id,
      model,
      summary,
      origin,
      identity: opts.identity,
      jobId: opts.jobId ?? '',
      excerpts: new ExcerptReader(model, () => openOrigin(origin)),
      holders: new Set(),
      findings: new BundleStepRunner(id, 'findings', this.events, (progress) => runFindings({ origin, reuse }, progress)),
      search: new BundleStepRunner(id, 'search', this.events, (progress) => buildBundleSearch(model, progress)),
      // The walks are bounded like a view's (the analysis budget's time), in a worker of their own.
      // Its worker starts once the checks have ended; the rows and columns come from this node at once.
      reach: new ReachSession(id, this.events, { origin, reuse, findings: () => b.findings.get(), ends: () => reachEndsOf(model).ends, maxCells: firstPassCells(), maxMs: ANALYSIS_BUDGET.maxMs ?? 30_000 }),
      services: new BundleStepRunner(id, 'services', this.events, (progress) => runServices({ origin, reuse }, progress)),
    };
    this.byId.set(id, b);
    // The oldest bundles are closed so a long session does not grow without bound.
    while (this.byId.size > MAX_OPEN) this.close(this.byId.keys().next().value!);
    // The search index is cheap and wanted soon (Ctrl+K); the checks start when a window attaches or
    // they are first asked for.
    b.search.startInBackground();
    return b;
  }

  /** Where the open bundles were loaded from. */
  locations(): string[] {
    return [...this.byId.values()].map((b) => b.model.source.location);
  }

  /**
   * Follows the locations no open bundle uses any more (closed, pushed out by newer ones, or never
   * loaded): the browser-mode server deletes an upload then.
   */
  onReleased(listener: (location: string) => void): () => void {
    this.released.add(listener);
    return () => this.released.delete(listener);
  }

  /** Says `location` is released unless an open bundle still comes from it. */
  releaseLocation(location: string): void {
    if (this.locations().includes(location)) return;
    for (const l of this.released) l(location);
  }

  get(id: string): OpenBundle {
    const b = this.byId.get(id);
    if (!b) throw new ApiError('This node is no longer open in hnsight (it was closed or replaced, or hnsight was restarted): open it again.', 'not-found');
    return b;
  }

  /** The open bundle read from these files, if any. */
  byIdentity(identity: string): OpenBundle | undefined {
    for (const b of this.byId.values()) if (b.identity === identity) return b;
    return undefined;
  }

  list(): OpenBundle[] {
    return [...this.byId.values()];
  }

  close(id: string): void {
    const b = this.byId.get(id);
    if (!b) return;
    this.byId.delete(id);
    b.findings.close();
    b.search.close();
    b.reach.close();
    b.services.close();
    // What its load read is free for the next node at once, not when the collector gets to it.
    releaseNode(b.model);
    this.releaseLocation(b.model.source.location);
  }

  /** A window uses the bundle; its findings start now (the window follows them by their step). */
  hold(id: string, client: string): OpenBundle {
    const b = this.get(id);
    b.holders.add(client);
    b.findings.startInBackground();
    return b;
  }

  /** A window lets the bundle go; it closes when no window holds it any more. */
  release(id: string, client: string): void {
    const b = this.byId.get(id);
    if (!b) return;
    b.holders.delete(client);
    if (!b.holders.size) this.close(id);
  }

  /** The findings of a bundle: computed once, in a worker thread; a failed run is run again. */
  findings(b: OpenBundle): Promise<FindingView[]> {
    return b.findings.get();
  }

  /** The findings when the checks have ended, else undefined (what must not wait for them, a walk). */
  readyFindings(b: OpenBundle): FindingView[] | undefined {
    return b.findings.peek();
  }

  steps(b: OpenBundle): BundleStep[] {
    return [b.findings.state, b.search.state];
  }
}
