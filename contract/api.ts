// The one contract between the renderer and its backend. Two implementations: the Electron preload
// (IPC; validated in main) and the browser-mode client (HTTP to `hnsight serve`; validated in the
// server). Both validate every request with the schemas below; the renderer never knows which it has.
import { z } from 'zod';
import type { ApiMethodName } from './methods.ts';
import type { LoadProgress } from '../services/bundle/load.ts';
import type { BundleSummary, FileExcerpt, InspectorView, InventoryTable, SearchHit, TopologyGraph } from '../analysis/view-models/types.ts';
import type { WalkResult } from '../analysis/walk/types.ts';
import type { WalkPreset } from '../analysis/walk/presets.ts';
import type { FindingView } from '../analysis/view-models/findings.ts';
import type { SandboxTimeline } from '../analysis/timeline/index.ts';
import type { Notes } from '../analysis/report/notes.ts';
import type { DiffResult } from '../analysis/diff/types.ts';

const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/);
const objectRef = z.object({
  type: z.enum(['network', 'endpoint', 'loadbalancer', 'namespace', 'compartment', 'adapter', 'port', 'route', 'remote-subnet', 'file', 'node']),
  id: z.string().min(1).max(512),
}).strict();

// A host name or address as typed: no spaces, no user info, nothing a shell or URL would reinterpret.
const hostName = z.string().min(1).max(255).regex(/^[A-Za-z0-9._:%[\]-]+$/, 'must be a host name or an IP address');
const localPath = z.string().min(1).max(4096);
const userName = z.string().min(1).max(256).regex(/^[^\s:@/]+$|^[^\s:/]+@[^\s:/@]+$/, 'must be a user name (DOMAIN\\user, user or user@domain)');
/** Where to collect from; the same shapes as LiveTarget of services/live/service.ts, without secrets. */
export const collectTarget = z.discriminatedUnion('transport', [
  z.object({
    transport: z.literal('winrm'),
    // http(s)://host[:port][/path]; no user info (the user is a field of its own, the password never in a URL).
    url: z.string().min(1).max(2048).regex(/^https?:\/\/[^\s/@?#]+(\/[^\s@?#]*)?$/i, 'must be http://HOST[:5985] or https://HOST[:5986], without a user or password in it'),
    user: userName,
    auth: z.enum(['ntlm', 'basic']).optional(),
    insecureSkipTlsVerify: z.boolean().optional(),
  }).strict(),
  z.object({
    transport: z.literal('ssh'),
    host: hostName,
    port: z.number().int().min(1).max(65535).optional(),
    user: userName,
    privateKeyFile: localPath.optional(),
    knownHostsFile: localPath.optional(),
    acceptNewHostKey: z.boolean().optional(),
  }).strict(),
  z.object({
    transport: z.literal('kubectl'),
    node: z.string().min(1).max(253).regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/i, 'must be a Kubernetes node name'),
    kubeconfig: localPath.optional(),
    context: z.string().min(1).max(256).optional(),
    namespace: z.string().min(1).max(63).regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a Kubernetes namespace name').optional(),
  }).strict(),
]);
export type CollectTarget = z.infer<typeof collectTarget>;

const ipv4 = z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/);
const port = z.number().int().min(1).max(65535);
const isoTime = z.string().max(40);

/** A packet walk to run (the `trace` request without the bundle). */
export const flowSchema = z.object({
  srcIp: ipv4,
  dstIp: ipv4,
  dstPort: port.optional(),
  srcPort: port.optional(),
  proto: z.enum(['tcp', 'udp', 'icmp']),
  dip: ipv4.optional(),
}).strict();

export const noteSchema = z.object({
  id: z.string().min(1).max(128),
  target: z.object({ kind: z.enum(['hop', 'finding', 'object', 'report']), ref: z.string().min(1).max(600) }).strict(),
  text: z.string().max(20_000),
  createdAt: isoTime,
  updatedAt: isoTime,
}).strict();

/** The notes file (README "Notes file"): what saveNotes takes and getNotes returns. */
export const notesSchema = z.object({
  schema: z.literal(1),
  bundle: z.object({ hash: z.string().max(128), location: z.string().max(4096), hostName: z.string().max(256).optional() }).strict(),
  title: z.string().max(300),
  summary: z.string().max(20_000),
  notes: z.array(noteSchema).max(2000),
  traces: z.array(flowSchema).max(50),
  revision: z.number().int().min(0),
}).strict();

/** What a window sends to saveNotes: the notes it edited (bundle, schema and revision are the backend's). */
const notesInput = notesSchema.partial({ schema: true, bundle: true, revision: true });

/** Request schemas, one per method. `.strict()` refuses unknown keys. */
export const requests = {
  info: z.object({}).strict(),
  openBundle: z.object({ path: z.string().min(1).max(4096) }).strict(),
  openDemo: z.object({ name: z.enum(['l2bridge-node', 'overlay-node']) }).strict(),
  pickBundle: z.object({ kind: z.enum(['folder', 'zip']) }).strict(),
  pickSavePath: z.object({ defaultName: z.string().min(1).max(255).regex(/^[\w .-]+$/), extension: z.enum(['html', 'md', 'json', 'pdf']) }).strict(),
  getJob: z.object({ jobId: id }).strict(),
  cancelLoad: z.object({ jobId: id }).strict(),
  listRecent: z.object({}).strict(),
  closeBundle: z.object({ bundleId: id }).strict(),
  getTopology: z.object({ bundleId: id, expandLoadBalancers: z.boolean().optional() }).strict(),
  getInventory: z.object({ bundleId: id }).strict(),
  search: z.object({ bundleId: id, query: z.string().max(256), limit: z.number().int().min(1).max(500).optional() }).strict(),
  inspect: z.object({ bundleId: id, ref: objectRef }).strict(),
  trace: z.object({
    bundleId: id,
    srcIp: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/),
    dstIp: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/),
    dstPort: z.number().int().min(1).max(65535).optional(),
    srcPort: z.number().int().min(1).max(65535).optional(),
    proto: z.enum(['tcp', 'udp', 'icmp']),
    dip: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/).optional(),
  }).strict(),
  walkPresets: z.object({ bundleId: id }).strict(),
  getFindings: z.object({ bundleId: id }).strict(),
  getTimelines: z.object({ bundleId: id }).strict(),
  getExcerpt: z.object({ bundleId: id, file: z.string().min(1).max(1024), line: z.number().int().min(0).max(1e9), context: z.number().int().min(0).max(200).optional() }).strict(),
  // Live collection. The password travels only in startCollect, is held in memory for that job and is
  // never part of a reply, an error, a log line or a file (see requestSecrets and validateRequest).
  startCollect: z.object({
    target: collectTarget,
    password: z.string().max(1024).optional(),
    /** true: remember the password (desktop app, OS-encrypted) once it has worked; false: forget a remembered one. */
    remember: z.boolean().optional(),
    outDir: z.string().min(1).max(4096).optional(),
  }).strict(),
  getCollectJob: z.object({ jobId: id }).strict(),
  cancelCollect: z.object({ jobId: id }).strict(),
  listSavedTargets: z.object({}).strict(),
  forgetTarget: z.object({ key: z.string().min(1).max(2048), passwordOnly: z.boolean().optional() }).strict(),
  // Notes and reports (issue 6).
  getNotes: z.object({ bundleId: id }).strict(),
  /** Refused (error "stale: …") when baseRevision is not the stored revision: another window saved first. */
  saveNotes: z.object({ bundleId: id, notes: notesInput, baseRevision: z.number().int().min(0) }).strict(),
  exportReport: z.object({
    bundleId: id,
    format: z.enum(['html', 'md', 'json', 'pdf']),
    traces: z.array(flowSchema).max(50),
    redact: z.boolean(),
    /** Absolute path to write (required for pdf); its extension must fit the format. */
    outPath: z.string().min(1).max(4096).optional(),
  }).strict(),
  openDiff: z.object({ pathA: z.string().min(1).max(4096), pathB: z.string().min(1).max(4096) }).strict(),
  getDiff: z.object({ jobId: id }).strict(),
} as const;

export type Method = keyof typeof requests;
export type Request<M extends Method> = z.infer<(typeof requests)[M]>;

export interface AppInfo {
  mode: 'electron' | 'browser';
  version: string;
  demos: { name: 'l2bridge-node' | 'overlay-node'; title: string }[];
  /** Native open dialogs exist (Electron). In browser mode the user types a path on the server's disk. */
  nativeDialogs: boolean;
  /** A bundle to open at start (command line / `npm start`). */
  initialBundle?: string;
  /** Connect to node… (live collection) is available. */
  liveCollection: boolean;
  /** Passwords can be remembered (desktop app with an OS keychain); otherwise the reason they cannot. */
  rememberPasswords?: { available: true } | { available: false; reason: string };
}

/** Loading progress, as the loader reports it. */
export type LoadProgressView = LoadProgress;

export interface JobState {
  jobId: string;
  state: 'loading' | 'done' | 'error' | 'cancelled';
  location: string;
  progress: LoadProgressView;
  summary?: BundleSummary;
  error?: string;
}

export interface RecentEntry {
  path: string;
  hostName?: string;
  openedAt: string;
}

/** One collection command as the app reports it (a manifest record without stderr). */
export interface CollectCommandView {
  id: string;
  file: string;
  title: string;
  status: 'ok' | 'partial' | 'failed' | 'cancelled' | 'skipped';
  bytes: number;
  durationMs: number;
  error?: string;
}

/** A collection job as the renderer polls it. Never carries a password. */
export interface CollectJobState {
  jobId: string;
  /** connecting → running → done (complete) | partial | failed | cancelled. */
  state: 'connecting' | 'running' | 'done' | 'partial' | 'failed' | 'cancelled';
  transport: CollectTarget['transport'];
  /** What was connected to, without credentials. */
  target: string;
  /** The bundle folder being written (open it with openBundle when the state is done or partial). */
  outDir: string;
  startedAt: string;
  finishedAt?: string;
  /** The command running now, with 0-based index of total. */
  current?: { id: string; file: string; title: string; index: number; bytes: number };
  total: number;
  /** Commands finished so far, in order. */
  commands: CollectCommandView[];
  /** Bytes written so far (finished commands plus the running one). */
  bytes: number;
  /** Whether the password is now remembered for this target (after remember: true worked). */
  passwordRemembered?: boolean;
  /** Why remembering the password did not happen, when it was asked for. */
  rememberError?: string;
  /** The manifest written to hnsight-collect.json, once finished. */
  manifest?: { status: 'complete' | 'partial' | 'failed' | 'cancelled'; error?: string; commands: CollectCommandView[] };
  error?: string;
}

/** A target the user collected from before. No secrets: only whether one is remembered. */
export interface SavedTarget {
  key: string;
  label: string;
  target: CollectTarget;
  lastUsedAt: string;
  passwordRemembered: boolean;
}

export interface Responses {
  info: AppInfo;
  openBundle: { jobId: string };
  openDemo: { jobId: string };
  pickBundle: { path: string } | null;
  /** Electron's native save dialog; null when cancelled, and always in browser mode. */
  pickSavePath: { path: string } | null;
  getJob: JobState;
  cancelLoad: { ok: true };
  listRecent: RecentEntry[];
  closeBundle: { ok: true };
  getTopology: TopologyGraph;
  getInventory: InventoryTable[];
  search: SearchHit[];
  inspect: InspectorView;
  getExcerpt: FileExcerpt;
  trace: WalkResult;
  walkPresets: WalkPreset[];
  getFindings: FindingView[];
  getTimelines: SandboxTimeline[];
  startCollect: { jobId: string };
  getCollectJob: CollectJobState;
  cancelCollect: { ok: true };
  listSavedTargets: SavedTarget[];
  forgetTarget: { ok: true };
  getNotes: Notes;
  saveNotes: { revision: number };
  exportReport: ExportReportResult;
  openDiff: { jobId: string };
  getDiff: DiffJobState;
}

export interface ExportReportResult {
  /** The document as text (html, md, json): the preview. Absent for pdf. */
  content?: string;
  /** Where it was written, when outPath was given. */
  path?: string;
  bytes: number;
}

export interface DiffJobState {
  jobId: string;
  state: 'loading' | 'done' | 'error';
  pathA: string;
  pathB: string;
  /** Loading progress of each side. */
  progress: { a: LoadProgressView; b: LoadProgressView };
  result?: DiffResult;
  error?: string;
}

/** What the renderer calls. Implemented by the preload bridge and by the browser-mode HTTP client. */
export type HnsightApi = { [M in Method]: (req: Request<M>) => Promise<Responses[M]> } & {
  /**
   * Menu commands pushed by the Electron main process ('open-folder', 'open-zip', 'open-path' with
   * { path }, 'export', 'find', 'fit-graph', 'toggle-dark-mode', 'connect'). Browser mode never calls back.
   */
  onCommand(cb: (command: string, payload?: { path?: string }) => void): () => void;
};

export const METHODS = Object.keys(requests) as Method[];

// The zod-free name list (preload, renderer) and the schemas must name the same methods.
type NamesMissingSchemas = Exclude<ApiMethodName, Method>;
type SchemasMissingNames = Exclude<Method, ApiMethodName>;
const _sameMethods: [NamesMissingSchemas | SchemasMissingNames] extends [never] ? true : { mismatch: NamesMissingSchemas | SchemasMissingNames } = true;
void _sameMethods;

/** Methods whose requests carry a secret: their bodies are never logged, and no error about them may echo it. */
export const SECRET_METHODS: readonly Method[] = ['startCollect'];

/** The secrets a request body carries (the password of startCollect), whether or not the body is valid. */
export function requestSecrets(method: string, body: unknown): string[] {
  if (!(SECRET_METHODS as string[]).includes(method) || !body || typeof body !== 'object') return [];
  const pw = (body as { password?: unknown }).password;
  return typeof pw === 'string' && pw.length > 0 ? [pw] : [];
}

/** A message that would show a secret becomes a generic one; anything else is returned as is. */
export function withoutSecrets(message: string, secrets: readonly string[], generic: string): string {
  return secrets.some((s) => message.includes(s)) ? generic : message;
}

/** Parses a request for a method; throws a ValidationError with a readable message when it does not fit. */
export function validateRequest<M extends Method>(method: string, body: unknown): { method: M; req: Request<M> } {
  if (!(METHODS as string[]).includes(method)) throw new ValidationError(`unknown method ${JSON.stringify(method).slice(0, 80)}`);
  const r = requests[method as M].safeParse(body ?? {});
  if (!r.success) {
    // zod messages name unknown keys and can quote what they received: for a method that carries a
    // secret, a message containing it is replaced by one that names only the fields.
    const msg = `bad arguments for ${method}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`;
    const fields = [...new Set(r.error.issues.map((i) => i.path.join('.') || '(root)'))].join(', ');
    throw new ValidationError(withoutSecrets(msg, requestSecrets(method, body), `bad arguments for ${method} (in ${fields}; details withheld because they would show the password)`));
  }
  return { method: method as M, req: r.data as Request<M> };
}

export class ValidationError extends Error {
  override name = 'ValidationError';
}
