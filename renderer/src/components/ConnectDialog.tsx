// Connect to node…: collect a bundle from a live Windows node over WinRM, SSH or kubectl, watch the
// commands run, cancel, and open the result like a CollectLogs bundle. The form (one field group per
// transport) and the job's progress and result are in connect/; connect-form.ts is their pure model.
// The password lives only in the form's field until Connect is pressed; it is then handed to
// startCollect and the field cleared. It is never put in a store, a URL, the console or the DOM
// outside the field.
import { Plug } from 'lucide-react';
import { Dialog } from './Dialog.tsx';
import { appStore } from '../store/app-store.ts';
import { collectStore, useCollect } from '../store/collect-store.ts';
import { isFinished } from './connect-form.ts';
import { ConnectFormView } from './connect/ConnectFormView.tsx';
import { CollectJobView } from './connect/CollectJobView.tsx';
import './ConnectDialog.css';

export function ConnectDialog() {
  const open = useCollect((s) => s.open);
  const job = useCollect((s) => s.job);
  if (!open) return null;
  const close = () => {
    const j = collectStore.getState().job;
    collectStore.getState().close();
    if (j && !isFinished(j)) appStore.getState().toast('info', 'The collection goes on in the background; Open ▾ → Connect to node… shows it.');
  };
  return (
    <Dialog label="Connect to a node" onClose={close} className="connect-dialog" testId="connect-dialog">
      <div className="dialog-head">
        <Plug size={17} aria-hidden />
        <h2>Connect to a node</h2>
        <span className="muted connect-sub">Collect a bundle from a live Windows node</span>
      </div>
      {job ? <CollectJobView job={job} onClose={close} /> : <ConnectFormView onClose={close} />}
    </Dialog>
  );
}
