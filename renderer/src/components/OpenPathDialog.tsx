// Browser mode: the server reads bundles from its own disk, so the user types where the bundle is.
import { useState } from 'react';
import { Dialog } from './Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { useOpenActions } from '../hooks/useOpenActions.ts';

export function OpenPathDialog() {
  const open = useApp((s) => s.openPathOpen);
  const setOpen = useApp((s) => s.setOpenPathOpen);
  const [path, setPath] = useState('');
  const { openPath } = useOpenActions();
  if (!open) return null;
  const submit = () => {
    const p = path.trim();
    if (!p) return;
    setOpen(false);
    void openPath(p);
  };
  return (
    <Dialog label="Open a bundle by path" onClose={() => setOpen(false)} className="path-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2>Open path on this machine</h2>
        <p className="muted">
          A CollectLogs folder, a .zip or a single saved output, on the machine running <span className="mono">hnsight serve</span>.
        </p>
        <PathField value={path} onChange={setPath} autoFocus />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="submit" className="btn primary" disabled={!path.trim()}>
            Open
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function PathField({ value, onChange, autoFocus }: { value: string; onChange(v: string): void; autoFocus?: boolean }) {
  return (
    <input
      className="input mono path-input"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder="/home/me/tickets/12345/CollectLogs  or  C:\k\debug\bundle.zip"
      aria-label="Bundle path"
      spellCheck={false}
      autoComplete="off"
      data-autofocus={autoFocus ? '' : undefined}
      data-testid="path-input"
    />
  );
}
