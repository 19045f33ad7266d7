// What the domain handlers share: the backend's options and its stores. Built once by Backend.
import type { Request, Response } from '../../contract/index.ts';
import type { PdfRenderer } from '../export/export.ts';
import type { NotesStore } from '../notes/index.ts';
import type { RecentStore } from '../recent.ts';
import type { SavedTargetStore } from '../live/saved-targets.ts';
import type { CollectJobs } from '../live/collect-jobs.ts';
import type { EventBus } from './event-bus.ts';
import type { OpenBundles } from './open-bundles.ts';
import type { LoadJobs } from './load-jobs.ts';
import type { DiffJobs } from './diff-jobs.ts';
import type { Grants } from './grants.ts';
import type { SecretStore } from './secret-store.ts';

/** Native dialogs: the desktop shell has them, browser mode does not (its handlers answer null). */
export interface Dialogs {
  pickBundle(req: Request<'pickBundle'>): Promise<Response<'pickBundle'>>;
  pickSavePath(req: Request<'pickSavePath'>): Promise<Response<'pickSavePath'>>;
  /** An open dialog for a kubeconfig, key or known_hosts file (optional: a shell without one refuses the pick). */
  pickCredentialFile?(req: Request<'pickCredentialFile'>): Promise<Response<'pickCredentialFile'>>;
}

export interface BackendOptions {
  mode: 'electron' | 'browser';
  dataDir: string;
  demoDir?: string;
  /** The bundle named on the command line: opened first, and the user's choice (grants.ts). */
  initialBundle?: string;
  /** A folder of bundles to open as a cluster at start (`hnsight serve DIR`). */
  initialCluster?: string;
  /** Folders the user allowed on the command line (`hnsight serve --allow`): bundles under them may be opened by path. */
  allowedRoots?: string[];
  version?: string;
  /** Where remembered passwords are kept (the desktop app: OS-encrypted). None in browser mode. */
  secretStore?: SecretStore;
  /** Prints report HTML to PDF (Electron: printToPDF); without it, headless Chromium as in the CLI. */
  renderPdf?: PdfRenderer;
  dialogs?: Dialogs;
  /** Where unexpected failures are logged. */
  log?: (message: string) => void;
}

export interface BackendContext {
  opts: BackendOptions;
  events: EventBus;
  bundles: OpenBundles;
  loads: LoadJobs;
  diffs: DiffJobs;
  collects: CollectJobs;
  recent: RecentStore;
  notes: NotesStore;
  savedTargets: SavedTargetStore;
  /** What the user chose: the only paths a request may open or write. */
  grants: Grants;
}
