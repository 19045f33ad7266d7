// A finished collection: how it ended and why, what was collected, the commands that did not
// complete and how many never ran.
import { CircleCheck, CircleMinus, CircleX, TriangleAlert } from 'lucide-react';
import type { CollectJob } from '../../../../contract/index.ts';
import { progressOf, resultOf } from '../connect-form.ts';
import { CommandList } from './CommandList.tsx';

function ResultIcon({ state }: { state: CollectJob['state'] }) {
  if (state === 'done') return <CircleCheck size={22} className="ok-icon" aria-hidden />;
  if (state === 'partial') return <TriangleAlert size={22} className="warn-icon" aria-hidden />;
  if (state === 'cancelled') return <CircleMinus size={22} className="muted" aria-hidden />;
  return <CircleX size={22} className="err-icon" aria-hidden />;
}

/** The headline of the result (with the job's notes about the password between it and the lists). */
export function CollectResult({ job }: { job: CollectJob }) {
  const result = resultOf(job);
  return (
    <div className={`connect-result ${job.state}`} role="status" data-testid="connect-result">
      <ResultIcon state={job.state} />
      <div className="connect-result-text">
        <div className="connect-result-title">{result.title}</div>
        <div className="connect-result-line">{progressOf(job).line}</div>
        {result.reason && <div className="connect-result-reason">{result.reason}</div>}
      </div>
    </div>
  );
}

/** The finished run's commands worth listing one by one, and how many never ran. */
export function CollectProblems({ job }: { job: CollectJob }) {
  const result = resultOf(job);
  return (
    <>
      {result.problems.length > 0 && <CommandList rows={result.problems} title={`Did not complete (${result.problems.length})`} />}
      {result.notRun > 0 && job.commands.some((c) => c.bytes > 0) && (
        <p className="muted connect-note">
          {result.notRun} {result.notRun === 1 ? 'command was' : 'commands were'} not run.
        </p>
      )}
    </>
  );
}
