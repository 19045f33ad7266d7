// The backend cannot be reached, the bundle opened at start failed, or (browser mode) the server no
// longer accepts this tab: say what happened and offer the ways forward.
import { AlertOctagon, RotateCw, FolderOpen, KeyRound } from 'lucide-react';
import { useApp } from '../store/app-store.ts';

export function ErrorState() {
  const fatal = useApp((s) => s.fatal);
  const init = useApp((s) => s.init);
  const open = useApp((s) => s.open);
  const dismiss = useApp((s) => s.dismissFatal);
  if (!fatal) return null;
  if (fatal.kind === 'access') {
    return (
      <div className="center-overlay" data-testid="error-state" data-kind="access">
        <div className="load-card error-card" role="alert">
          <div className="load-head">
            <KeyRound size={20} aria-hidden className="error-text" />
            <h2>This tab is not connected to hnsight</h2>
          </div>
          <p className="error-message" data-testid="access-lost">
            {fatal.message}
          </p>
          <p className="muted">
            Each <span className="mono">hnsight serve</span> prints a URL with a new token when it starts. Open that URL in this browser: a reloaded tab keeps its
            token, a new tab needs the URL again. Tabs of other hnsight servers (on other ports) keep working.
          </p>
        </div>
      </div>
    );
  }
  const retry = () => (fatal.kind === 'backend' || !fatal.location ? void init() : void open({ path: fatal.location }, { initial: true }));
  return (
    <div className="center-overlay" data-testid="error-state">
      <div className="load-card error-card" role="alert">
        <div className="load-head">
          <AlertOctagon size={20} aria-hidden className="error-text" />
          <h2>{fatal.kind === 'backend' ? 'hnsight is not reachable' : 'This bundle could not be opened'}</h2>
        </div>
        {fatal.location && <div className="mono load-location">{fatal.location}</div>}
        <p className="error-message">{fatal.message}</p>
        {fatal.kind === 'backend' && <p className="muted">If you used browser mode, check that <span className="mono">hnsight serve</span> is still running and open the URL it printed.</p>}
        <div className="dialog-actions">
          {fatal.kind === 'bundle' && (
            <button type="button" className="btn" onClick={dismiss}>
              <FolderOpen size={15} aria-hidden /> Open another…
            </button>
          )}
          <button type="button" className="btn primary" onClick={retry} data-autofocus="">
            <RotateCw size={15} aria-hidden /> Retry
          </button>
        </div>
      </div>
    </div>
  );
}
