// The collection once started: progress while it runs (Hide, Cancel), then the result (open what
// was collected, collect again, or back to the form).
import type { CollectJob } from '../../../../contract/index.ts';
import { collectStore, useCollect } from '../../store/collect-store.ts';
import { canOpen, isFinished } from '../connect-form.ts';
import { CollectProgress } from './CollectProgress.tsx';
import { CollectProblems, CollectResult } from './CollectResult.tsx';
import { CommandList } from './CommandList.tsx';

export function CollectJobView({ job, onClose }: { job: CollectJob; onClose(): void }) {
  const { cancel, again, openResult } = collectStore.getState();
  const opened = useCollect((s) => s.opened);
  const startError = useCollect((s) => s.startError);
  const finished = isFinished(job);
  const openable = finished && canOpen(job);
  return (
    <div className="connect-job" data-testid="connect-job" data-state={job.state}>
      <div className="connect-target mono ellipsis" title={job.target}>
        {job.target}
      </div>
      {finished ? <CollectResult job={job} /> : <CollectProgress job={job} />}
      {job.rememberError && <p className="connect-warn">{job.rememberError}</p>}
      {job.notices?.map((n) => (
        <p key={n} className="connect-warn" data-testid="collect-notice">
          {n}
        </p>
      ))}
      {job.passwordRemembered && <p className="muted connect-note">The password is remembered, encrypted with the OS keychain.</p>}
      {finished ? <CollectProblems job={job} /> : <CommandList rows={job.commands} follow />}

      {openable && (
        <p className="muted connect-note">
          Saved in <span className="mono">{job.outDir}</span>
          {opened ? ' — opened in the app.' : '.'}
        </p>
      )}
      {startError && <p className="error-message">{startError}</p>}
      <div className="dialog-actions">
        {!finished ? (
          <>
            <button type="button" className="btn" onClick={onClose} title="The collection goes on; Open ▾ → Connect to node… shows it again">
              Hide
            </button>
            <button type="button" className="btn danger" onClick={() => void cancel()} data-testid="connect-cancel">
              Cancel collection
            </button>
          </>
        ) : openable ? (
          <>
            <button type="button" className="btn" onClick={again} data-testid="connect-again">
              Collect again
            </button>
            {opened ? (
              <button type="button" className="btn primary" onClick={onClose} data-testid="connect-show">
                Show the bundle
              </button>
            ) : (
              <button type="button" className="btn primary" onClick={() => void openResult()} data-testid="connect-open">
                Open what was collected
              </button>
            )}
          </>
        ) : (
          <>
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
            <button type="button" className="btn primary" onClick={again} data-testid="connect-again" data-autofocus="">
              Back to the form
            </button>
          </>
        )}
      </div>
    </div>
  );
}
