// The one contract between the renderer and its backend. Two implementations: the Electron preload
// (IPC; validated in main) and the browser-mode client (HTTP to `hnsight serve`; validated in the
// server). Both validate every request with the schemas below; the renderer never knows which it has.
import { z } from 'zod';
import type { BundleSummary, FileExcerpt, InspectorView, InventoryTable, SearchHit, TopologyGraph } from '../analysis/views/types.ts';
import type { TraceResult } from '../analysis/trace/types.ts';
import type { TracePreset } from '../analysis/trace/presets.ts';
import type { FindingView } from '../analysis/views/findings.ts';
import type { SandboxTimeline } from '../analysis/timeline/index.ts';

const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:-]+$/);
const objectRef = z.object({
  type: z.enum(['network', 'endpoint', 'loadbalancer', 'namespace', 'compartment', 'adapter', 'port', 'route', 'remote-subnet', 'file', 'node']),
  id: z.string().min(1).max(512),
}).strict();

/** Request schemas, one per method. `.strict()` refuses unknown keys. */
export const requests = {
  info: z.object({}).strict(),
  openBundle: z.object({ path: z.string().min(1).max(4096) }).strict(),
  openDemo: z.object({ name: z.enum(['l2bridge-node', 'overlay-node']) }).strict(),
  pickBundle: z.object({ kind: z.enum(['folder', 'zip']) }).strict(),
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
  tracePresets: z.object({ bundleId: id }).strict(),
  getFindings: z.object({ bundleId: id }).strict(),
  getTimelines: z.object({ bundleId: id }).strict(),
  getExcerpt: z.object({ bundleId: id, file: z.string().min(1).max(1024), line: z.number().int().min(0).max(1e9), context: z.number().int().min(0).max(200).optional() }).strict(),
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
  liveCollection: false;
}

export interface LoadProgressView {
  phase: 'listing' | 'reading' | 'assembling' | 'done';
  file?: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

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

export interface Responses {
  info: AppInfo;
  openBundle: { jobId: string };
  openDemo: { jobId: string };
  pickBundle: { path: string } | null;
  getJob: JobState;
  cancelLoad: { ok: true };
  listRecent: RecentEntry[];
  closeBundle: { ok: true };
  getTopology: TopologyGraph;
  getInventory: InventoryTable[];
  search: SearchHit[];
  inspect: InspectorView;
  getExcerpt: FileExcerpt;
  trace: TraceResult;
  tracePresets: TracePreset[];
  getFindings: FindingView[];
  getTimelines: SandboxTimeline[];
}

/** What the renderer calls. Implemented by the preload bridge and by the browser-mode HTTP client. */
export type HnsightApi = { [M in Method]: (req: Request<M>) => Promise<Responses[M]> } & {
  /**
   * Menu commands pushed by the Electron main process ('open-folder', 'open-zip', 'open-path' with
   * { path }, 'export', 'find', 'fit-graph', 'toggle-dark-mode'). Browser mode never calls back.
   */
  onCommand(cb: (command: string, payload?: { path?: string }) => void): () => void;
};

export const METHODS = Object.keys(requests) as Method[];

/** Parses a request for a method; throws a ValidationError with a readable message when it does not fit. */
export function validateRequest<M extends Method>(method: string, body: unknown): { method: M; req: Request<M> } {
  if (!(METHODS as string[]).includes(method)) throw new ValidationError(`unknown method ${JSON.stringify(method).slice(0, 80)}`);
  const r = requests[method as M].safeParse(body ?? {});
  if (!r.success) throw new ValidationError(`bad arguments for ${method}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
  return { method: method as M, req: r.data as Request<M> };
}

export class ValidationError extends Error {
  override name = 'ValidationError';
}
