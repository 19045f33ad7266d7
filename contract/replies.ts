// What each method of the contract answers. Plain data: the same over IPC and HTTP (inside the reply
// envelope of envelope.ts). Views built by the pure layers are referenced, not restated.
import type { BundleSummary, FileExcerpt, InspectorView, InventoryTable, SearchHit, TopologyGraph } from '../analysis/view-models/types.ts';
import type { FindingView } from '../analysis/findings/types.ts';
import type { WalkResult } from '../analysis/walk/types.ts';
import type { ServicesTableView } from '../analysis/view-models/services-table.ts';
import type { ReachSnapshot } from '../analysis/view-models/reach-data.ts';
import type { ReachDiffView } from '../analysis/view-models/reach-diff-view.ts';
import type { WalkPreset } from '../analysis/walk/presets.ts';
import type { SandboxTimeline } from '../analysis/timeline/index.ts';
import type { Notes } from '../analysis/report/notes.ts';
import type { DiffResult } from '../analysis/diff/types.ts';
import type { PastePreview } from '../analysis/view-models/paste-preview.ts';
import type { CollectTarget, Method } from './schemas.ts';
import type { ClusterGraph } from '../analysis/view-models/cluster-graph.ts';
import type { ClusterFinding, StitchedWalk } from '../analysis/cluster/index.ts';

/** A cluster the backend opened: its nodes, how many of their beliefs about each other resolved, the findings across nodes. */
export interface ClusterOpened {
  clusterId: string;
  location: string;
  nodes: { id: string; host: string; bundle: string; platform: string; nodeIp?: string; errors: number; warnings: number }[];
  joins: number;
  unresolved: number;
  findings: ClusterFinding[];
  /** Bundles that could not be read, and entries of the folder that are no bundle. */
  failed: { bundle: string; error: string }[];
  skipped: { name: string; reason: string }[];
}

/** A walk across nodes, with what it lights on the cluster graph (its reply's too). */
export type WalkAcrossView = StitchedWalk & { lit: string[]; replyLit?: string[] };

export interface AppInfo {
  mode: 'electron' | 'browser';
  version: string;
  demos: { name: 'l2bridge-node' | 'overlay-node'; title: string }[];
  /** Native open dialogs exist (Electron). In browser mode the user types a path on the server's disk. */
  nativeDialogs: boolean;
  /** A bundle to open at start (command line / `npm start`). */
  initialBundle?: string;
  /** A folder of bundles (one per node) to open as a cluster at start (`hnsight serve DIR`). */
  initialCluster?: string;
  /** Connect to node… (live collection) is available. */
  liveCollection: boolean;
  /** Passwords can be remembered (desktop app with an OS keychain); otherwise the reason they cannot. */
  rememberPasswords?: { available: true } | { available: false; reason: string };
}

/** How far a load has got, as the loader reports it. */
export interface LoadProgress {
  phase: 'listing' | 'reading' | 'assembling' | 'done';
  file?: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/** A bundle being loaded (or the last state of one that ended). */
export interface LoadJob {
  jobId: string;
  state: 'loading' | 'done' | 'error' | 'cancelled';
  location: string;
  progress: LoadProgress;
  summary?: BundleSummary;
  error?: string;
}

/**
 * A long step the backend takes once per open bundle, after its load: the checks (findings, run in a
 * worker thread) and the search index. Followed like a job: 'step' events carry its whole state;
 * getStep answers it. A step that failed runs again when its result is asked for (getFindings, search).
 */
export interface BundleStep {
  /** `<bundleId>:<step>`. */
  jobId: string;
  bundleId: string;
  step: 'findings' | 'search' | 'reach' | 'reach-diff' | 'services';
  /** waiting: not started yet (the findings start when a window attaches, or when first asked for). */
  state: 'waiting' | 'running' | 'done' | 'error';
  /** What is being done now, in words, and how far: `done` of `total` (total 0: not known yet). */
  progress?: { done: number; total: number; what?: string };
  error?: string;
  /** How long the last run took, once done. */
  ms?: number;
}

/** A bundle open in the backend, as listOpen tells it: what a reloaded window can attach to. */
export interface OpenNodeInfo {
  bundleId: string;
  location: string;
  hostName?: string;
  /** The load job that opened it. */
  jobId: string;
  steps: BundleStep[];
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

/** A live collection. Never carries a password. */
export interface CollectJob {
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
  /** What the user should know about the connection (an SSH host key accepted for this connection only). */
  notices?: string[];
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

export interface ExportResult {
  /** The document as text (html, md, json): the preview. Absent for pdf. */
  content?: string;
  /** The PDF, base64, when no outPath was given: the page downloads it. */
  pdfBase64?: string;
  /** Where it was written, when outPath was given (a path the save dialog answered). */
  path?: string;
  bytes: number;
}

/** Two bundles being compared (or the last state of a comparison). */
export interface DiffJob {
  jobId: string;
  state: 'loading' | 'done' | 'error';
  pathA: string;
  pathB: string;
  /** Loading progress of each side. */
  progress: { a: LoadProgress; b: LoadProgress };
  result?: DiffResult;
  error?: string;
}

/** The reply of every method. The compiler checks that Responses covers every method, no more. */
export interface Responses {
  info: AppInfo;
  openBundle: { jobId: string };
  openDropped: { jobId: string };
  openDemo: { jobId: string };
  pickBundle: { path: string } | null;
  getJob: LoadJob;
  cancelLoad: { ok: true };
  listRecent: RecentEntry[];
  closeBundle: { ok: true };
  /** The bundles open in this backend and the loads running, so a window can attach instead of loading again. */
  listOpen: { bundles: OpenNodeInfo[]; loads: LoadJob[] };
  /** Joins a window to an open bundle (closeBundle with the same client lets it go); its summary. */
  attachBundle: BundleSummary;
  getStep: BundleStep;
  getTopology: TopologyGraph;
  getInventory: InventoryTable[];
  search: SearchHit[];
  inspect: InspectorView;
  getExcerpt: FileExcerpt;
  /** A load job (as openBundle): the pasted text, alone or joined with what the node was read from. */
  addPaste: { jobId: string };
  recognisePaste: PastePreview;
  walk: WalkResult;
  openCluster: ClusterOpened;
  getClusterGraph: ClusterGraph;
  walkAcross: WalkAcrossView;
  walkPresets: WalkPreset[];
  getFindings: FindingView[];
  getTimelines: SandboxTimeline[];
  reachMatrix: ReachSnapshot;
  reachCompute: { queued: number };
  cancelReach: { ok: true };
  getServices: ServicesTableView | null; // null: still being worked out in a worker (the node's 'services' step says when it ends: ask again)
  /** null: still being worked out (the comparison's reach-diff step says when it ends: ask again). */
  reachDiff: ReachDiffView | null;
  cancelReachDiff: { ok: true };
  walkCompared: WalkResult;
  startCollect: { jobId: string };
  getCollectJob: CollectJob;
  cancelCollect: { ok: true };
  listSavedTargets: SavedTarget[];
  forgetTarget: { ok: true };
  /** The file the native open dialog answered (now the user's choice for startCollect); null when cancelled. */
  pickCredentialFile: { path: string } | null;
  getNotes: Notes;
  saveNotes: { revision: number };
  /** Electron's native save dialog; null when cancelled, and always in browser mode. */
  pickSavePath: { path: string } | null;
  exportReport: ExportResult;
  openDiff: { jobId: string };
  getDiff: DiffJob;
}

export type Response<M extends Method> = Responses[M];

// Compile-time: one reply per method, and no reply without a method.
type Exact<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : { mismatch: Exclude<A, B> | Exclude<B, A> };
const _repliesCoverMethods: Exact<keyof Responses, Method> = true;
void _repliesCoverMethods;
