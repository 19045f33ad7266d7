// The cluster workspace's store: a folder of bundles opened as a cluster (one node per bundle), its
// graph, and the walk across nodes with what it lights. A store of its own (not a slice of the app
// store) with its API passed in, so unit tests drive it with a fake API and no DOM.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppInfo, HnsightApi, Request, Response } from '../../../contract/index.ts';
import type { Flow } from '../../../analysis/walk/types.ts';

export interface ClusterDeps {
  api: Pick<HnsightApi, 'openCluster' | 'getClusterGraph' | 'walkAcross' | 'localPaths'>;
  /** Says why a cluster did not open: nothing of the cluster is on screen to say it. */
  notify?: (message: string) => void;
}

export interface ClusterState {
  opening: boolean;
  opened?: Response<'openCluster'>;
  graph?: Response<'getClusterGraph'>;
  walk?: Response<'walkAcross'>;
  walking: boolean;
  /** Show the reply's lit path instead of the request's. */
  showReply: boolean;
  error?: string;
  /** The Open a folder of bundles… dialog. */
  dialogOpen: boolean;
  setDialogOpen(v: boolean): void;
  /** Opens the folder the app was started with (`hnsight serve DIR`), if any. */
  initFrom(info: AppInfo | undefined): Promise<void>;
  open(path: string): Promise<void>;
  /** Several files dropped or picked together: each a node of one cluster. */
  openFiles(files: File[]): Promise<void>;
  walkAcross(flow: Flow): Promise<void>;
  setShowReply(v: boolean): void;
  close(): void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function createClusterStore(deps: ClusterDeps): StoreApi<ClusterState> {
  let seq = 0;
  return createStore<ClusterState>()((set, get) => {
    const openWith = async (req: () => Request<'openCluster'> | Promise<Request<'openCluster'>>) => {
      const mine = ++seq;
      set({ opening: true, error: undefined, walk: undefined });
      try {
        const opened = await deps.api.openCluster(await req());
        const graph = await deps.api.getClusterGraph({ clusterId: opened.clusterId });
        if (mine === seq) set({ opened, graph, opening: false });
      } catch (e) {
        if (mine === seq) {
          set({ opening: false, error: message(e) });
          if (!get().opened) deps.notify?.(`The bundles could not be opened as a cluster: ${message(e)}`);
        }
      }
    };
    return {
    opening: false,
    walking: false,
    showReply: false,
    dialogOpen: false,
    setDialogOpen(v) {
      set({ dialogOpen: v });
    },
    async initFrom(info) {
      if (info?.initialCluster && !get().opened) await get().open(info.initialCluster);
    },
    async open(path) {
      await openWith(() => ({ path }));
    },
    async openFiles(files) {
      await openWith(async () => ({ paths: await deps.api.localPaths(files) }));
    },
    async walkAcross(flow) {

      const opened = get().opened;
      if (!opened) return;
      set({ walking: true, error: undefined });
      try {
        const walk = await deps.api.walkAcross({ ...flow, clusterId: opened.clusterId, reply: true });
        set({ walk, walking: false, showReply: false });
      } catch (e) {
        set({ walking: false, error: message(e) });
      }
    },
    setShowReply(v) {
      set({ showReply: v });
    },
    close() {
      seq++;
      set({ opened: undefined, graph: undefined, walk: undefined, error: undefined, opening: false });
    },
  };
  });
}
