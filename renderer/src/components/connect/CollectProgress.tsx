// A running collection: the progress bar, the line saying where it is, the file being written.
import type { CollectJob } from '../../../../contract/index.ts';
import { progressOf } from '../connect-form.ts';

export function CollectProgress({ job }: { job: CollectJob }) {
  const p = progressOf(job);
  const pct = Math.round(p.fraction * 100);
  return (
    <div role="status" aria-live="polite" className="connect-progress">
      <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-label="Collection progress">
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <div className="connect-progress-line">
        <span className="spinner small" aria-hidden />
        <span data-testid="connect-progress">{p.line}</span>
      </div>
      {p.file && <div className="mono ellipsis connect-current">{p.file}</div>}
    </div>
  );
}
