// The reachability part of a comparison: asked once the two bundles are compared (reachDiff, in a
// worker on the backend), its progress from the 'step' events of the comparison's reach-diff step,
// Cancel (what is compared so far is answered), Retry after a failure.
import { useCallback, useEffect, useState } from 'react';
import type { BundleStep } from '../../../contract/index.ts';
import type { ReachDiffView } from '../../../analysis/view-models/reach-diff-view.ts';
import { api } from '../api/index.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function useReachDiff(jobId: string): { view?: ReachDiffView; step?: BundleStep; error?: string; cancel(): void; retry(): void } {
  const [view, setView] = useState<ReachDiffView>();
  const [step, setStep] = useState<BundleStep>();
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setView(undefined);
    setError(undefined);
    const off = api.subscribe((e) => {
      if (live && e.type === 'step' && e.job.jobId === `${jobId}:reach-diff`) setStep(e.job);
    });
    api.reachDiff({ jobId }).then(
      (v) => live && setView(v),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
      off();
    };
  }, [jobId, attempt]);
  const cancel = useCallback(() => void api.cancelReachDiff({ jobId }), [jobId]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { view, step, error, cancel, retry };
}
