// The backend every shell uses: loads bundles as background jobs and answers the API contract's
// calls from the loaded models. Plain Node — the Electron main process and `hnsight serve` both wrap
// it, and both route every request through validateRequest first.
import path from 'node:path';
import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadBundle, LoadCancelled } from './bundle/load.ts';
import { BundleOpenError } from './bundle/source.ts';
import { RecentStore } from './recent.ts';
import { ExcerptReader } from './excerpt.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { startLiveCollection, type LiveCollectionJob, type LiveTarget } from './live/service.ts';
import type { CollectEvent, CollectManifest, CommandRecord } from './live/collector.ts';
import {
  requestSecrets, validateRequest, ValidationError,
  type AppInfo, type DiffJobState, type CollectCommandView, type CollectJobState, type CollectTarget, type JobState, type Method, type Request, type Responses, type SavedTarget,
} from '../contract/api.ts';
import type { NodeModel } from '../parsers/model/types.ts';
import type { BundleSummary, SearchHit, TopologyGraph } from '../analysis/view-models/types.ts';
import { buildSummary } from '../analysis/view-models/summary.ts';
import { buildInventory } from '../analysis/view-models/inventory.ts';
import { buildInspector } from '../analysis/view-models/inspector.ts';
import { buildSearchIndex, searchObjects, searchRuleBytes, type SearchIndex } from '../analysis/view-models/search.ts';
import { buildTopology } from '../analysis/topology.ts';
import { walkFlow } from '../analysis/walk/engine.ts';
import { walkPresets } from '../analysis/walk/presets.ts';
import { runChecks } from '../analysis/checks/index.ts';
import { findingViews, type FindingView } from '../analysis/view-models/findings.ts';
import { buildTimelines } from '../analysis/timeline/index.ts';
import { diffModels } from '../analysis/diff/index.ts';
import type { Flow } from '../analysis/walk/types.ts';
import type { Notes } from '../analysis/report/notes.ts';
import { NotesStore, StaleNotesError, bundleHash } from './notes/index.ts';
import { exportReport, formatFromPath, reportHtml, type PdfRenderer } from './export/export.ts';
import { PdfUnavailable } from './export/pdf.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_DEMO_DIR = path.resolve(here, '../assets/demo');
const MAX_BUNDLES = 4;

export interface BackendOptions {
  mode: 'electron' | 'browser';
  dataDir: string;
  demoDir?: string;
  initialBundle?: string;
  version?: string;
  /**
   * Where remembered passwords are kept (the desktop app: OS-encrypted, electron/main/secret-store.ts).
   * None in browser mode: remembering is refused there.
   */
  secretStore?: SecretStore;
  /**
   * Prints report HTML to PDF. The Electron shell passes one built on webContents.printToPDF; without
   * it, headless Chromium (playwright-core) is used, as in the CLI.
   */
  renderPdf?: PdfRenderer;
}

/** Remembered passwords, keyed by targetKey(). Implementations store only ciphertext. */
export interface SecretStore {
  /** Undefined when secrets can be stored now; otherwise why not, in words for the user. */
  unavailableReason(): string | undefined;
  get(targetKey: string): Promise<string | undefined>;
  set(targetKey: string, secret: string): Promise<void>;
  delete(targetKey: string): Promise<void>;
  /** The keys that have a secret, without decrypting any. */
  keys(): Promise<string[]>;
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
  /** Identity of the bundle for its notes (computed on first use). */
  hash?: Promise<string>;
}

interface DiffJob {
  state: DiffJobState;
}

/** A request the user can fix (bad path, unknown bundle): its message is shown as is. */
export class BackendError extends Error {
  override name = 'BackendError';
}

export class Backend {
  private jobs = new Map<string, Job>();
  private diffs = new Map<string, DiffJob>();
  private collectJobs = new Map<string, CollectJob>();
  readonly savedTargets: SavedTargetStore;
  private bundles = new Map<string, Loaded>();
  private seq = 0;
  readonly recent: RecentStore;
  readonly notes: NotesStore;

  constructor(private readonly opts: BackendOptions) {
    this.recent = new RecentStore(opts.dataDir);
    this.notes = new NotesStore(opts.dataDir);
    this.savedTargets = new SavedTargetStore(opts.dataDir);
  }

  /** Validates and runs one call of the contract. Throws ValidationError or BackendError. */
  async call(method: string, body: unknown): Promise<unknown> {
    // For a request that carries a password, no error leaves with it in its message (or its stack).
    const secrets = requestSecrets(method, body);
    try {
      const v = validateRequest(method, body);
      return await this.dispatch(v.method, v.req as never);
    } catch (e) {
      if (!secrets.length) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      const clean = redact(msg, secrets, `${method} failed (the message is withheld because it contained the password)`);
      throw e instanceof ValidationError ? new ValidationError(clean) : new BackendError(clean);
    }
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
      case 'pickSavePath':
        // Native dialogs belong to the Electron shell, which answers these calls itself.
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
        return walkFlow(b.model, flow, { explain: true }) as Responses[M];
      }
      case 'getFindings': {
        const b = this.bundle(String(r.bundleId));
        b.findings ??= findingViews(b.model, runChecks(b.model));
        return b.findings as Responses[M];
      }
      case 'getTimelines':
        return buildTimelines(this.bundle(String(r.bundleId)).model.logs ?? []) as Responses[M];
      case 'walkPresets':
        return walkPresets(this.bundle(String(r.bundleId)).model) as Responses[M];
      case 'startCollect':
        return (await this.startCollect(req as Request<'startCollect'>)) as Responses[M];
      case 'getCollectJob':
        return this.collectJob(String(r.jobId)).view() as Responses[M];
      case 'cancelCollect':
        this.collectJob(String(r.jobId)).cancel();
        return { ok: true } as Responses[M];
      case 'listSavedTargets':
        return (await this.listSavedTargets()) as Responses[M];
      case 'forgetTarget':
        await this.forgetTarget(String(r.key), !!r.passwordOnly);
        return { ok: true } as Responses[M];
      case 'getNotes': {
        const b = this.bundle(String(r.bundleId));
        return (await this.notes.get(await this.notesBundle(b))) as Responses[M];
      }
      case 'saveNotes': {
        const b = this.bundle(String(r.bundleId));
        try {
          const { revision } = await this.notes.save(await this.notesBundle(b), r.notes as Notes, Number(r.baseRevision));
          return { revision } as Responses[M];
        } catch (e) {
          if (e instanceof StaleNotesError) throw new BackendError(e.message);
          throw e;
        }
      }
      case 'exportReport':
        return (await this.exportReport(String(r.bundleId), req as Request<'exportReport'>)) as Responses[M];
      case 'openDiff':
        return this.startDiff(path.resolve(String(r.pathA)), path.resolve(String(r.pathB))) as Responses[M];
      case 'getDiff': {
        const d = this.diffs.get(String(r.jobId));
        if (!d) throw new BackendError(`no diff job ${String(r.jobId)}`);
        return d.state as Responses[M];
      }
      default:
        throw new BackendError(`method ${method} is not implemented`);
    }
  }

  private async notesBundle(b: Loaded): Promise<{ hash: string; location: string; hostName?: string }> {
    b.hash ??= bundleHash(b.model.source.location);
    let hash: string;
    try {
      hash = await b.hash;
    } catch (e) {
      b.hash = undefined;
      throw new BackendError(`cannot identify the bundle for its notes: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { hash, location: b.model.source.location, ...(b.model.meta.hostName ? { hostName: b.model.meta.hostName } : {}) };
  }

  /** The report's HTML for a bundle, with its saved notes (the Electron shell prints it with printToPDF). */
  async reportHtml(bundleId: string, traces: Flow[], redact: boolean): Promise<string> {
    const b = this.bundle(bundleId);
    const notes = await this.notes.get(await this.notesBundle(b));
    b.findings ??= findingViews(b.model, runChecks(b.model));
    return reportHtml(b.model, { flows: traces, notes, redact, findings: b.findings, generatedAt: new Date().toISOString() });
  }

  private async exportReport(bundleId: string, r: Request<'exportReport'>): Promise<Responses['exportReport']> {
    const b = this.bundle(bundleId);
    const notes = await this.notes.get(await this.notesBundle(b));
    b.findings ??= findingViews(b.model, runChecks(b.model));
    let outPath: string | undefined;
    if (r.outPath) {
      outPath = path.resolve(r.outPath);
      if (!path.isAbsolute(r.outPath)) throw new BackendError('outPath must be an absolute path');
      if (formatFromPath(outPath) !== r.format) throw new BackendError(`outPath must end in the extension of the format (${r.format})`);
    } else if (r.format === 'pdf') throw new BackendError('a PDF export needs outPath (the file to write)');
    try {
      const res = await exportReport(b.model, { format: r.format, flows: r.traces, redact: r.redact, notes, findings: b.findings, outPath, renderPdf: this.opts.renderPdf, generatedAt: new Date().toISOString() });
      return { bytes: res.bytes, ...(res.content !== undefined ? { content: res.content } : {}), ...(res.path ? { path: res.path } : {}) };
    } catch (e) {
      if (e instanceof PdfUnavailable) throw new BackendError(e.message);
      const code = (e as NodeJS.ErrnoException).code;
      if (code) throw new BackendError(`cannot write ${outPath}: ${code}`);
      throw e;
    }
  }

  /** Loads two bundles in the background and compares them; the renderer polls getDiff. */
  startDiff(pathA: string, pathB: string): { jobId: string } {
    const jobId = `diff-${++this.seq}`;
    const empty = () => ({ phase: 'listing' as const, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 });
    const job: DiffJob = { state: { jobId, state: 'loading', pathA, pathB, progress: { a: empty(), b: empty() } } };
    this.diffs.set(jobId, job);
    Promise.all([
      loadBundle(pathA, { onProgress: (p) => (job.state.progress.a = { ...p }) }),
      loadBundle(pathB, { onProgress: (p) => (job.state.progress.b = { ...p }) }),
    ])
      .then(([a, b]) => {
        job.state = { ...job.state, state: 'done', result: diffModels(a, b, { findingsA: runChecks(a), findingsB: runChecks(b) }) };
      })
      .catch((e) => {
        job.state = { ...job.state, state: 'error', error: e instanceof BundleOpenError ? e.message : `could not compare: ${e instanceof Error ? e.message : String(e)}` };
      });
    for (const [id, j] of this.diffs) if (this.diffs.size > 10 && j.state.state !== 'loading') this.diffs.delete(id);
    return { jobId };
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
      liveCollection: true,
      rememberPasswords: this.rememberRefusal() ? { available: false, reason: this.rememberRefusal()! } : { available: true },
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

  // -------------------------------------------------------------------------------------------
  // Live collection: jobs the renderer polls with getCollectJob, saved targets, remembered passwords.
  // The password is held in memory for its job only (and handed to the secret store when the user
  // asked to remember it and it worked); it is never part of a job state, an error or a file.

  /** Why a password cannot be remembered here, or undefined when it can. */
  private rememberRefusal(): string | undefined {
    if (!this.opts.secretStore) return this.opts.mode === 'browser' ? 'remembering passwords needs the desktop app' : 'remembering passwords is not available';
    return this.opts.secretStore.unavailableReason();
  }

  private collectJob(id: string): CollectJob {
    const j = this.collectJobs.get(id);
    if (!j) throw new BackendError(`no collection job ${id}`);
    return j;
  }

  private async startCollect(req: Request<'startCollect'>): Promise<{ jobId: string }> {
    const target = req.target;
    const key = targetKey(target);
    const store = this.opts.secretStore;
    if (req.remember) {
      const refusal = this.rememberRefusal();
      if (refusal) throw new BackendError(`cannot remember the password: ${refusal}`);
    }
    const running = [...this.collectJobs.values()].filter((j) => !j.finished).length;
    if (running >= MAX_COLLECTIONS) throw new BackendError(`${running} collections are running; wait for one to finish or cancel it`);
    // No password typed: a remembered one, if there is one.
    let secret: string | undefined = req.password || undefined;
    let usedRemembered = false;
    if (!secret && store && target.transport !== 'kubectl' && !this.rememberRefusal()) {
      secret = await store.get(key).catch(() => undefined);
      usedRemembered = !!secret;
    }
    if (target.transport === 'winrm' && !secret) throw new BackendError('WinRM needs a password');
    if (target.transport === 'ssh' && !secret && !target.privateKeyFile) throw new BackendError('SSH needs a password or a private key file');
    if (req.remember === false && store) await store.delete(key).catch(() => undefined);

    const outDir = req.outDir ? path.resolve(req.outDir) : await newCollectionDir(this.opts.dataDir, target);
    const jobId = `collect-${++this.seq}`;
    const credentials = target.transport === 'ssh' && target.privateKeyFile ? { passphrase: secret } : { password: secret };
    const job = new CollectJob(jobId, target, outDir);
    this.collectJobs.set(jobId, job);
    const secrets = secret ? [secret] : [];
    const remember = req.remember === true && !!secret && !!store;

    const onEvent = (e: CollectEvent) => {
      job.onEvent(e);
      if (e.type === 'connected') {
        // The credentials worked: now the target is worth listing, and the password worth keeping.
        void this.savedTargets.touch(key, target).catch(() => undefined);
        if (remember && secret) {
          store!.set(key, secret).then(
            () => { job.state.passwordRemembered = true; },
            (err: unknown) => { job.state.rememberError = redact(`could not remember the password: ${err instanceof Error ? err.message : String(err)}`, secrets, 'could not remember the password'); },
          );
        }
      }
    };
    let live: LiveCollectionJob;
    try {
      live = startLiveCollection({ target: liveTarget(target), credentials, outDir, onEvent });
    } catch (e) {
      this.collectJobs.delete(jobId);
      throw e;
    }
    job.attach(live);
    live.done.then(
      async (m) => {
        job.finish(m, undefined, secrets, usedRemembered);
        // A folder we made for a run that never got in holds only its manifest: not worth keeping.
        if (!req.outDir && (m.status === 'failed' || m.status === 'cancelled') && m.commands.every((c) => c.status === 'skipped' || c.bytes === 0)) {
          await fs.rm(outDir, { recursive: true, force: true }).catch(() => undefined);
        }
      },
      (e: unknown) => job.finish(undefined, e, secrets, usedRemembered),
    ).finally(() => {
      // Drop every reference to the password this job held.
      secret = undefined;
      secrets.length = 0;
    });
    // Old finished collection jobs are forgotten.
    for (const [id, j] of this.collectJobs) if (this.collectJobs.size > 20 && j.finished) this.collectJobs.delete(id);
    return { jobId };
  }

  async listSavedTargets(): Promise<SavedTarget[]> {
    const list = await this.savedTargets.list();
    const store = this.opts.secretStore;
    const keys = new Set(store ? await store.keys().catch(() => [] as string[]) : []);
    return list.map((t) => ({ ...t, passwordRemembered: keys.has(t.key) }));
  }

  private async forgetTarget(key: string, passwordOnly: boolean): Promise<void> {
    if (this.opts.secretStore) await this.opts.secretStore.delete(key);
    if (!passwordOnly) await this.savedTargets.remove(key);
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
            rule: { port: key, layer: '', group: '', rule: h.ruleName, line: f.index.lineAt(h.ruleByte) },
            score: 10,
          });
        }
      });
    }
    return hits.slice(0, limit);
  }
}

// ---------------------------------------------------------------------------------------------
// Live collection helpers.

const MAX_COLLECTIONS = 4;

/** A message that contains a secret is replaced as a whole (partial masking would still hint at it). */
function redact(message: string, secrets: readonly string[], generic: string): string {
  return secrets.some((s) => s && message.includes(s)) ? generic : message;
}

/** The key a target's remembered password and saved entry go by: transport, where, and as whom. */
export function targetKey(t: CollectTarget): string {
  switch (t.transport) {
    case 'winrm': {
      let where = t.url;
      try {
        const u = new URL(t.url);
        where = `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`.toLowerCase();
      } catch {
        // the contract's pattern admits only URLs; keep the text if one still does not parse
      }
      return `winrm:${where}|${t.user.toLowerCase()}`;
    }
    case 'ssh':
      return `ssh:${t.user}@${t.host.toLowerCase()}:${t.port ?? 22}`;
    case 'kubectl':
      return `kubectl:${t.kubeconfig ?? ''}|${t.context ?? ''}|${t.node.toLowerCase()}`;
  }
}

/** A short name for a target: the host or node as the user typed it. */
export function targetHost(t: CollectTarget): string {
  if (t.transport === 'winrm') {
    try {
      return new URL(t.url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return 'node';
    }
  }
  return t.transport === 'ssh' ? t.host : t.node;
}

function targetLabel(t: CollectTarget): string {
  switch (t.transport) {
    case 'winrm':
      return `${t.user} @ ${t.url}`;
    case 'ssh':
      return `${t.user}@${t.host}${t.port && t.port !== 22 ? `:${t.port}` : ''} (SSH)`;
    case 'kubectl':
      return `${t.node} (kubectl${t.context ? `, ${t.context}` : ''})`;
  }
}

function liveTarget(t: CollectTarget): LiveTarget {
  return { ...t } as LiveTarget;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<dataDir>/collections/<host>-<yyyyMMdd-HHmmss>`, created empty (a suffix when that second is taken). */
export async function newCollectionDir(dataDir: string, t: CollectTarget, now = new Date()): Promise<string> {
  const host = targetHost(t).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 64) || 'node';
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const parent = path.join(dataDir, 'collections');
  await fs.mkdir(parent, { recursive: true });
  for (let i = 1; ; i++) {
    const dir = path.join(parent, `${host}-${stamp}${i > 1 ? `-${i}` : ''}`);
    try {
      await fs.mkdir(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || i > 100) throw e;
    }
  }
}

function commandView(r: CommandRecord): CollectCommandView {
  const v: CollectCommandView = { id: r.id, file: r.file, title: r.title, status: r.status, bytes: r.bytes, durationMs: r.durationMs };
  if (r.error) v.error = r.error;
  return v;
}

/** One collection: its state as the renderer sees it, updated from the collector's events. */
class CollectJob {
  readonly state: CollectJobState;
  private live?: LiveCollectionJob;
  finished = false;

  constructor(jobId: string, target: CollectTarget, outDir: string) {
    this.state = {
      jobId, state: 'connecting', transport: target.transport, target: targetLabel(target), outDir,
      startedAt: new Date().toISOString(), total: 0, commands: [], bytes: 0,
    };
  }

  attach(live: LiveCollectionJob): void {
    this.live = live;
  }

  cancel(): void {
    this.live?.cancel();
  }

  view(): CollectJobState {
    return { ...this.state, current: this.state.current && { ...this.state.current }, commands: [...this.state.commands] };
  }

  onEvent(e: CollectEvent): void {
    const s = this.state;
    switch (e.type) {
      case 'connecting':
        s.target = e.target;
        break;
      case 'connected':
        s.state = 'running';
        break;
      case 'command-start':
        s.total = e.total;
        s.current = { id: e.id, file: e.file, title: e.title, index: e.index, bytes: 0 };
        break;
      case 'command-output':
        if (s.current?.id === e.id) {
          s.current.bytes = e.bytes;
          s.bytes = s.commands.reduce((n, c) => n + c.bytes, 0) + e.bytes;
        }
        break;
      case 'command-end':
        s.total = e.total;
        s.commands.push(commandView(e.record));
        s.bytes = s.commands.reduce((n, c) => n + c.bytes, 0);
        s.current = undefined;
        break;
      case 'done':
        break;
    }
  }

  finish(m: CollectManifest | undefined, err: unknown, secrets: readonly string[], usedRemembered: boolean): void {
    const s = this.state;
    s.finishedAt = new Date().toISOString();
    s.current = undefined;
    if (m) {
      const commands = m.commands.map(commandView);
      s.commands = commands;
      s.total = commands.length;
      s.bytes = commands.reduce((n, c) => n + c.bytes, 0);
      s.manifest = { status: m.status, commands };
      if (m.error) s.manifest.error = m.error;
      s.state = m.status === 'complete' ? 'done' : m.status;
      if (m.error) s.error = m.error;
      if (s.state === 'failed' && usedRemembered && commands.every((c) => c.status === 'skipped')) {
        s.error = `${s.error ?? 'could not connect'} (the remembered password was used; type the password to try another)`;
      }
    } else {
      s.state = 'failed';
      s.error = err instanceof Error ? err.message : String(err);
    }
    // Belt and braces: nothing the renderer polls may carry the password, whatever a server answered.
    if (secrets.length) {
      const generic = '(message withheld: it contained the password)';
      if (s.error) s.error = redact(s.error, secrets, generic);
      if (s.manifest?.error) s.manifest.error = redact(s.manifest.error, secrets, generic);
      for (const c of s.commands) if (c.error) c.error = redact(c.error, secrets, generic);
    }
    this.live = undefined;
    this.finished = true;
  }
}

/** Targets the user collected from, as JSON in the data folder. Never a secret. */
export class SavedTargetStore {
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly dataDir: string) {}

  private get file(): string {
    return path.join(this.dataDir, 'saved-targets.json');
  }

  async list(): Promise<Omit<SavedTarget, 'passwordRemembered'>[]> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.file, 'utf8')) as unknown;
      if (!Array.isArray(parsed)) return [];
      return parsed.filter((e): e is Omit<SavedTarget, 'passwordRemembered'> => !!e && typeof e.key === 'string' && !!e.target && typeof e.target.transport === 'string').slice(0, MAX_SAVED);
    } catch {
      return [];
    }
  }

  private update(fn: (list: Omit<SavedTarget, 'passwordRemembered'>[]) => Omit<SavedTarget, 'passwordRemembered'>[]): Promise<void> {
    const next = this.chain.then(async () => {
      const out = fn(await this.list()).slice(0, MAX_SAVED);
      await writeFileAtomic(this.file, JSON.stringify(out, null, 2) + '\n');
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  touch(key: string, target: CollectTarget): Promise<void> {
    return this.update((list) => [{ key, label: targetLabel(target), target, lastUsedAt: new Date().toISOString() }, ...list.filter((t) => t.key !== key)]);
  }

  remove(key: string): Promise<void> {
    return this.update((list) => list.filter((t) => t.key !== key));
  }
}

const MAX_SAVED = 30;
