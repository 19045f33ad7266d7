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
    let busy = false;
    let got = false;
    setView(undefined);
    setError(undefined);
    // The answer comes within seconds, or null while the comparison runs: asked again when its step ends.
    const ask = () => {
      if (busy || got || !live) return;
      busy = true;
      api.reachDiff({ jobId }).then(
        (v) => {
          busy = false;
          if (!live || !v) return;
          got = true;
          setView(v);
        },
        (e: unknown) => {
          busy = false;
          if (live) setError(errorText(e));
        },
      );
    };
    const off = api.subscribe(
      (e) => {
        if (!live || e.type !== 'step' || e.job.jobId !== `${jobId}:reach-diff`) return;
        setStep(e.job);
        if (e.job.state === 'done') ask();
        else if (e.job.state === 'error') setError(e.job.error ?? 'the comparison failed');
      },
      () => ask(),
    );
    ask();
    return () => {
      live = false;
      off();
    };
  }, [jobId, attempt]);
  const cancel = useCallback(() => void api.cancelReachDiff({ jobId }), [jobId]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { view, step, error, cancel, retry };
}
