// No bundle open: every way in on one screen — open (folder/zip or a typed path), the demos, the
// recent bundles, and the hint that dropping works.
import { useRef, useState } from 'react';
import { FileArchive, FlaskConical, FolderOpen, History, Network, Upload, ArrowRight, Plug, GitCompare, ClipboardPaste } from 'lucide-react';
import { openConnectDialog } from '../store/collect-store.ts';
import { useApp } from '../store/app-store.ts';
import { useOpenActions } from '../hooks/useOpenActions.ts';
import { PathField } from '../components/OpenPathDialog.tsx';
import { UploadInput, type UploadInputHandle } from '../components/UploadInput.tsx';

export function EmptyState() {
  const info = useApp((s) => s.info);
  const recent = useApp((s) => s.recent);
  const { openFolder, openZip, openDemo, openPath } = useOpenActions();
  const [path, setPath] = useState('');
  const upload = useRef<UploadInputHandle>(null);
  const openCompare = useApp((s) => s.openCompare);
  const openPaste = useApp((s) => s.openPaste);
  const native = !!info?.nativeDialogs;
  return (
    <div className="empty-state" data-testid="empty-state">
      <div className="empty-inner">
        <div className="empty-hero">
          <Network size={36} aria-hidden />
          <div>
            <h1>Open a Windows node's bundle</h1>
            <p className="muted">
              A CollectLogs folder or the .zip attached to a ticket (AKS <span className="mono">collect-windows-logs</span> too), or one saved
              hnsdiag / Get-HnsEndpoint / ipconfig / vfpctrl output.
            </p>
          </div>
        </div>

        <section className="empty-card">
          <h2>Open</h2>
          {native ? (
            <div className="row-actions">
              <button type="button" className="btn primary" onClick={() => void openFolder()}>
                <FolderOpen size={15} aria-hidden /> Open folder…
              </button>
              <button type="button" className="btn" onClick={() => void openZip()}>
                <FileArchive size={15} aria-hidden /> Open zip…
              </button>
            </div>
          ) : (
            <form
              className="path-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (path.trim()) void openPath(path.trim());
              }}
            >
              <label className="field-label" htmlFor="empty-path">
                Path on the machine running <span className="mono">hnsight serve</span>
              </label>
              <div className="row-actions">
                <PathField value={path} onChange={setPath} />
                <button type="submit" className="btn primary" disabled={!path.trim()}>
                  Open <ArrowRight size={14} aria-hidden />
                </button>
              </div>
              <div className="row-actions">
                <button type="button" className="btn" onClick={() => upload.current?.pick()}>
                  <Upload size={15} aria-hidden /> Upload a .zip or file…
                </button>
                <UploadInput ref={upload} />
              </div>
            </form>
          )}
          <p className="drop-hint">
            <span aria-hidden>⤓</span> Or drop a {native ? 'folder, ' : ''}.zip or file anywhere in this window.
            {!native && ' Browsers cannot upload folders: zip it or type its path.'}
          </p>
        </section>

        <section className="empty-card">
          <h2>Other ways in</h2>
          <div className="row-actions wrap">
            <button type="button" className="btn" onClick={() => openPaste()} data-testid="empty-paste">
              <ClipboardPaste size={15} aria-hidden /> Paste output…
            </button>
            {info?.liveCollection && (
              <button type="button" className="btn" onClick={openConnectDialog} data-testid="empty-connect">
                <Plug size={15} aria-hidden /> Connect to node…
              </button>
            )}
            <button type="button" className="btn" onClick={openCompare} data-testid="empty-compare">
              <GitCompare size={15} aria-hidden /> Compare two bundles…
            </button>
          </div>
          <p className="muted small-text">
            Paste takes outputs copied from a ticket or a console (<kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>V</kbd>, or drop the text here); several pastes build
            up one node. Connect collects a new bundle from a live node over WinRM, SSH or kubectl. Compare shows what changed between two bundles.
          </p>
        </section>

        {!!info?.demos.length && (
          <section className="empty-card">
            <h2>Try a demo node</h2>
            <div className="demo-list">
              {info.demos.map((d) => (
                <button key={d.name} type="button" className="demo-item" onClick={() => void openDemo(d.name)} data-testid={`demo-${d.name}`}>
                  <FlaskConical size={16} aria-hidden />
                  <span>{d.title}</span>
                </button>
              ))}
            </div>
          </section>
        )}

        <section className="empty-card">
          <h2>Recent</h2>
          {recent.length ? (
            <ul className="recent-list">
              {recent.slice(0, 8).map((r) => (
                <li key={r.path}>
                  <button type="button" onClick={() => void openPath(r.path)} title={r.path}>
                    <History size={14} aria-hidden />
                    <span className="recent-host">{r.hostName ?? '—'}</span>
                    <span className="mono ellipsis recent-path">{r.path}</span>
                    <span className="muted recent-when">{new Date(r.openedAt).toLocaleString()}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Bundles you open appear here.</p>
          )}
        </section>
      </div>
    </div>
  );
}
