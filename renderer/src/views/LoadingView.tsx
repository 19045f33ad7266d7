// A load in progress: bytes and files read, the file being parsed, and Cancel.
import { useApp } from '../store/app-store.ts';
import { formatBytes, plural } from '../lib/format.ts';

const PHASE: Record<string, string> = {
  listing: 'Listing files',
  reading: 'Reading',
  assembling: 'Joining HNS, compartments and VFP',
  done: 'Done',
};

export function LoadingView() {
  const job = useApp((s) => s.job);
  const cancel = useApp((s) => s.cancelLoad);
  if (!job) return null;
  const p = job.progress;
  const frac = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : p.filesTotal > 0 ? p.filesDone / p.filesTotal : 0;
  const pct = Math.round(Math.min(1, frac) * 100);
  return (
    <div className="center-overlay" data-testid="loading">
      <div className="load-card" role="status" aria-live="polite">
        <div className="load-head">
          <span className="spinner" aria-hidden />
          <h2>Opening</h2>
        </div>
        <div className="mono load-location ellipsis" title={job.location}>
          {job.location}
        </div>
        <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Loading progress">
          <div className="progress-fill" style={{ width: `${pct}%` }} />
        </div>
        <div className="load-line">
          <span>
            {PHASE[p.phase] ?? p.phase}
            {p.filesTotal > 0 && (
              <>
                {' · '}
                {p.filesDone} of {plural(p.filesTotal, 'file')}
              </>
            )}
            {p.bytesTotal > 0 && (
              <>
                {' · '}
                {formatBytes(p.bytesDone)} / {formatBytes(p.bytesTotal)}
              </>
            )}
          </span>
          {p.file && <span className="mono ellipsis load-file">{p.file}</span>}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => void cancel()} data-testid="cancel-load">
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
