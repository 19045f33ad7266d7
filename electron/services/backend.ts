// The backend every shell uses: loads bundles as background jobs and answers the API contract's
// calls from the loaded models. Plain Node — the Electron main process and `hnsight serve` both wrap
// it, and both route every request through validateRequest first.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBundle, LoadCancelled } from './bundle/load.ts';
import { BundleOpenError } from './bundle/source.ts';
import { RecentStore } from './recent.ts';
import { ExcerptReader } from './excerpt.ts';
import { validateRequest, type AppInfo, type JobState, type Method, type Request, type Responses } from '../api-contract.ts';
import type { NodeModel } from '../../parsers/model/types.ts';
import type { BundleSummary, SearchHit, TopologyGraph } from '../../analysis/views/types.ts';
import { buildSummary } from '../../analysis/views/summary.ts';
import { buildInventory } from '../../analysis/views/inventory.ts';
import { buildInspector } from '../../analysis/views/inspector.ts';
import { buildSearchIndex, searchObjects, searchRuleBytes, type SearchIndex } from '../../analysis/views/search.ts';
import { buildTopology } from '../../analysis/topology.ts';
import { traceFlow } from '../../analysis/trace/engine.ts';
import { tracePresets } from '../../analysis/trace/presets.ts';
import { runChecks } from '../../analysis/checks/index.ts';
import { findingViews, type FindingView } from '../../analysis/views/findings.ts';
import { buildTimelines } from '../../analysis/timeline/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_DEMO_DIR = path.resolve(here, '../../assets/demo');
const MAX_BUNDLES = 4;

export interface BackendOptions {
  mode: 'electron' | 'browser';
  dataDir: string;
  demoDir?: string;
  initialBundle?: string;
  version?: string;
}

interface Job {
  state: JobState;
  abort: AbortController;
}

interface Loaded {
  model: NodeModel;
  summary: BundleSummary;
  search?: SearchIndex;
  topology?: Map<string, TopologyGraph>;
  excerpts: ExcerptReader;
  findings?: FindingView[];
}

/** A request the user can fix (bad path, unknown bundle): its message is shown as is. */
export class BackendError extends Error {
  override name = 'BackendError';
}

export class Backend {
  private jobs = new Map<string, Job>();
  private bundles = new Map<string, Loaded>();
  private seq = 0;
  readonly recent: RecentStore;

  constructor(private readonly opts: BackendOptions) {
    this.recent = new RecentStore(opts.dataDir);
  }

  /** Validates and runs one call of the contract. Throws ValidationError or BackendError. */
  async call(method: string, body: unknown): Promise<unknown> {
    const v = validateRequest(method, body);
    return this.dispatch(v.method, v.req as never);
  }

  private async dispatch<M extends Method>(method: M, req: Request<M>): Promise<Responses[M]> {
    const r = req as Record<string, unknown>;
    switch (method) {
      case 'info':
        return this.info() as Responses[M];
      case 'openBundle':
        return this.startLoad(path.resolve(String(r.path))) as Responses[M];
      case 'openDemo':
        return this.startLoad(path.join(this.opts.demoDir ?? DEFAULT_DEMO_DIR, String(r.name)), false) as Responses[M];
      case 'pickBundle':
        // Native dialogs belong to the Electron shell, which answers this call itself.
        return null as Responses[M];
      case 'getJob':
        return this.job(String(r.jobId)).state as Responses[M];
      case 'cancelLoad': {
        const j = this.job(String(r.jobId));
        j.abort.abort();
        return { ok: true } as Responses[M];
      }
      case 'listRecent':
        return (await this.recent.list()) as Responses[M];
      case 'closeBundle':
        this.bundles.delete(String(r.bundleId));
        return { ok: true } as Responses[M];
      case 'getTopology': {
        const b = this.bundle(String(r.bundleId));
        const key = r.expandLoadBalancers ? 'expanded' : 'default';
        b.topology ??= new Map();
        let g = b.topology.get(key);
        if (!g) {
          g = buildTopology(b.model, { expandLoadBalancers: !!r.expandLoadBalancers });
          b.topology.set(key, g);
        }
        return g as Responses[M];
      }
      case 'getInventory':
        return buildInventory(this.bundle(String(r.bundleId)).model) as Responses[M];
      case 'search':
        return this.search(String(r.bundleId), String(r.query), (r.limit as number | undefined) ?? 50) as Responses[M];
      case 'inspect': {
        const b = this.bundle(String(r.bundleId));
        const view = buildInspector(b.model, r.ref as never);
        if (!view) throw new BackendError(`nothing in this bundle is ${(r.ref as { type: string }).type} ${(r.ref as { id: string }).id}`);
        return view as Responses[M];
      }
      case 'getExcerpt': {
        const b = this.bundle(String(r.bundleId));
        try {
          return (await b.excerpts.excerpt(String(r.file), Number(r.line), (r.context as number | undefined) ?? 6)) as Responses[M];
        } catch (e) {
          throw new BackendError(e instanceof Error ? e.message : String(e));
        }
      }
      case 'trace': {
        const b = this.bundle(String(r.bundleId));
        const flow = { srcIp: String(r.srcIp), dstIp: String(r.dstIp), dstPort: r.dstPort as number | undefined, srcPort: r.srcPort as number | undefined, proto: r.proto as 'tcp' | 'udp' | 'icmp', dip: r.dip as string | undefined };
        return traceFlow(b.model, flow, { explain: true }) as Responses[M];
      }
      case 'getFindings': {
        const b = this.bundle(String(r.bundleId));
        b.findings ??= findingViews(b.model, runChecks(b.model));
        return b.findings as Responses[M];
      }
      case 'getTimelines':
        return buildTimelines(this.bundle(String(r.bundleId)).model.logs ?? []) as Responses[M];
      case 'tracePresets':
        return tracePresets(this.bundle(String(r.bundleId)).model) as Responses[M];
      default:
        throw new BackendError(`method ${method} is not implemented`);
    }
  }

  info(): AppInfo {
    return {
      mode: this.opts.mode,
      version: this.opts.version ?? '0.1.0',
      demos: [
        { name: 'l2bridge-node', title: 'Demo: l2bridge node (HNS v2, get-rule-counter)' },
        { name: 'overlay-node', title: 'Demo: overlay node (HNS v1, list-rule)' },
      ],
      nativeDialogs: this.opts.mode === 'electron',
      initialBundle: this.opts.initialBundle,
      liveCollection: false,
    };
  }

  private job(id: string): Job {
    const j = this.jobs.get(id);
    if (!j) throw new BackendError(`no loading job ${id}`);
    return j;
  }

  private bundle(id: string): Loaded {
    const b = this.bundles.get(id);
    if (!b) throw new BackendError(`bundle ${id} is not open (it may have been closed)`);
    return b;
  }

  /** Starts loading in the background; the renderer polls getJob for progress and the summary. */
  startLoad(location: string, remember = true): { jobId: string } {
    const jobId = `job-${++this.seq}`;
    const abort = new AbortController();
    const job: Job = {
      abort,
      state: { jobId, state: 'loading', location, progress: { phase: 'listing', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 } },
    };
    this.jobs.set(jobId, job);
    const t0 = performance.now();
    loadBundle(location, { signal: abort.signal, onProgress: (p) => (job.state.progress = { ...p }) })
      .then(async (model) => {
        const bundleId = `b${this.seq}-${Date.now().toString(36)}`;
        const summary = buildSummary(model, bundleId, performance.now() - t0);
        this.bundles.set(bundleId, { model, summary, excerpts: new ExcerptReader(model) });
        while (this.bundles.size > MAX_BUNDLES) this.bundles.delete(this.bundles.keys().next().value!);
        if (remember) await this.recent.add({ path: location, hostName: summary.hostName, openedAt: new Date().toISOString() }).catch(() => undefined);
        job.state = { ...job.state, state: 'done', summary };
      })
      .catch((e) => {
        job.state = {
          ...job.state,
          state: e instanceof LoadCancelled ? 'cancelled' : 'error',
          error: e instanceof BundleOpenError || e instanceof LoadCancelled ? e.message : `could not load ${location}: ${e instanceof Error ? e.message : String(e)}`,
        };
      });
    // Old finished jobs are forgotten so a long session does not grow without bound.
    for (const [id, j] of this.jobs) if (this.jobs.size > 50 && j.state.state !== 'loading') this.jobs.delete(id);
    return { jobId };
  }

  /** Waits for a job (CLI, tests). */
  async waitFor(jobId: string): Promise<JobState> {
    for (;;) {
      const s = this.job(jobId).state;
      if (s.state !== 'loading') return s;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private search(bundleId: string, query: string, limit: number): SearchHit[] {
    const b = this.bundle(bundleId);
    b.search ??= buildSearchIndex(b.model);
    const hits = searchObjects(b.search, query, limit);
    const m = b.model;
    if (m.vfp && hits.length < limit) {
      const portRefByIndex = new Map<string, string>();
      for (const p of m.ports ?? []) if (p.policy) portRefByIndex.set(`${p.policy.file}/${p.policy.port}`, p.key);
      m.vfp.files.forEach((f, fi) => {
        const ruleHits = searchRuleBytes(f.bytes, f.index.ports, query, Math.min(50, limit - hits.length), fi);
        for (const h of ruleHits) {
          const key = portRefByIndex.get(`${fi}/${h.port}`);
          if (!key) continue;
          hits.push({
            ref: { type: 'port', id: key },
            text: h.ruleName,
            context: `VFP rule on port ${h.portName.slice(0, 8)}`,
            rule: { port: key, layer: '', group: '', rule: h.ruleName, line: 0 },
            score: 10,
          });
        }
      });
    }
    return hits.slice(0, limit);
  }
}
