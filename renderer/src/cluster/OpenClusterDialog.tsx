// Open a folder of bundles (one per node) as a cluster: typed (browser mode: a path on the machine
// running `hnsight serve`) or chosen with the native folder dialog (desktop app).
import { useState } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { PathField } from '../components/OpenPathDialog.tsx';
import { useApp } from '../store/app-store.ts';
import { api } from '../api/index.ts';
import { clusterStore, useCluster } from './cluster-store.ts';

export function OpenClusterDialog() {
  const open = useCluster((s) => s.dialogOpen);
  const native = useApp((s) => !!s.info?.nativeDialogs);
  const [path, setPath] = useState('');
  if (!open) return null;
  const close = () => clusterStore.getState().setDialogOpen(false);
  const go = (p: string) => {
    close();
    void clusterStore.getState().open(p);
  };
  const choose = async () => {
    const picked = await api.pickBundle({ kind: 'folder' });
    if (picked) setPath(picked.path);
  };
  return (
    <Dialog label="Open a folder of bundles" onClose={close} className="path-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim()) go(path.trim());
        }}
      >
        <h2>Open a folder of bundles</h2>
        <p className="muted">One bundle per node of a cluster (CollectLogs folders or zips side by side): the nodes are joined, and a walk goes from node to node.</p>
        <PathField value={path} onChange={setPath} autoFocus />
        <div className="dialog-actions">
          {native && (
            <button type="button" className="btn" onClick={() => void choose()}>
              Choose folder…
            </button>
          )}
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={!path.trim()} data-testid="open-cluster-go">
            Open
          </button>
        </div>
      </form>
    </Dialog>
  );
}
