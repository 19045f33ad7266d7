// Paste output…: text copied from a ticket, a chat or a console, read like a file. The preview says
// what it is read as while it is edited; "Add to this node" joins it with what the open node was read
// from (a new node replaces it), "Open as a new node" reads it alone. Opened by Ctrl+Shift+V, the Open
// menu, the empty state, a paste or a text dropped on the window. Ctrl+Enter adds, Esc closes.
import { ClipboardPaste } from 'lucide-react';
import { Dialog } from '../components/Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { PastePreviewView } from './PastePreviewView.tsx';
import './PasteDialog.css';

export function PasteDialog() {
  const paste = useApp((s) => s.paste);
  const bundle = useApp((s) => s.bundle);
  const setText = useApp((s) => s.setPasteText);
  const setName = useApp((s) => s.setPasteName);
  const close = useApp((s) => s.closePaste);
  const add = useApp((s) => s.addPaste);
  if (!paste) return null;
  // Text that plainly comes from another node (its host name, its subnets) opens as a node of its own
  // by default: joined with this one it would make a node that never existed.
  const other = bundle && paste.previewOf === paste.text ? paste.preview?.otherNode : undefined;
  const primary = bundle && !other ? 'this-node' : 'new-node';
  return (
    <Dialog label="Paste output" onClose={close} className="paste-dialog" testId="paste-dialog">
      <div className="dialog-head">
        <ClipboardPaste size={17} aria-hidden />
        <h2>Paste output</h2>
        <span className="muted paste-sub ellipsis" title={bundle?.location}>
          {bundle ? `Open node: ${bundle.hostName ?? bundle.location}` : 'No node open yet'}
        </span>
      </div>
      <form
        className="paste-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add(primary);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void add(primary);
          }
        }}
      >
        <label className="field-label" htmlFor="paste-text">
          What a Windows node printed — <span className="mono">Get-HnsEndpoint</span>, <span className="mono">hnsdiag</span>, <span className="mono">ipconfig</span>,{' '}
          <span className="mono">route print</span>, <span className="mono">vfpctrl</span>… — as it is in the ticket: quote marks, code fences and console wraps are fine.
        </label>
        <textarea
          id="paste-text"
          className="input mono paste-text"
          value={paste.text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Paste here (Ctrl+V)"
          spellCheck={false}
          autoComplete="off"
          rows={12}
          data-autofocus=""
          data-testid="paste-text"
        />
        <div className="paste-name-row">
          <label className="field-label" htmlFor="paste-name">
            Name <span className="muted">(optional)</span>
          </label>
          <input
            id="paste-name"
            className="input mono"
            value={paste.name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. endpoints of pod A.txt"
            spellCheck={false}
            autoComplete="off"
            maxLength={200}
            data-testid="paste-name"
          />
        </div>
        <PastePreviewView paste={paste} />
        {other && (
          <p className="note warning paste-other" role="status" data-testid="paste-other-node">
            This looks like another node: {other.why}. It opens as a new node unless you add it to this one.
          </p>
        )}
        {paste.addError && (
          <p className="error-text" role="alert" data-testid="paste-error">
            {paste.addError}
          </p>
        )}
        <div className="dialog-actions">
          <span className="muted paste-keys">
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> {primary === 'this-node' ? 'adds to this node' : bundle ? 'opens as a new node' : 'opens'} · <kbd>Esc</kbd> closes
          </span>
          <button type="button" className="btn" onClick={close}>
            Cancel
          </button>
          <button type={primary === 'new-node' ? 'submit' : 'button'} className={`btn ${primary === 'new-node' ? 'primary' : ''}`} disabled={paste.adding} onClick={primary === 'new-node' ? undefined : () => void add('new-node')} data-testid="paste-new">
            Open as a new node
          </button>
          {bundle && (
            <button type={primary === 'this-node' ? 'submit' : 'button'} className={`btn ${primary === 'this-node' ? 'primary' : ''}`} disabled={paste.adding} onClick={primary === 'this-node' ? undefined : () => void add('this-node')} data-testid="paste-add">
              Add to this node
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
