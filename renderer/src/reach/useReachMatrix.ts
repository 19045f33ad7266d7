// The reachability matrix of the open node as it fills: the first snapshot (sources and destinations,
// and whatever is worked out), then — at every 'step' event of the node's reach step, and on every
// (re)connection of the event channel — the cells after those already held. A fetch at a time; an
// event during one asks for another after it. `compute` asks the backend for more cells (a row, a
// group), `cancel` stops what is queued.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BundleStep } from '../../../contract/index.ts';
import type { ReachMatrixView } from '../../../analysis/view-models/reach-data.ts';
import { api } from '../api/index.ts';

/** Cells one request may ask for (the backend's ASK_MAX_CELLS). */
export const ASK_MAX_CELLS = 20_000;

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface ReachState {
  data?: ReachMatrixView;
  running: boolean;
  step?: BundleStep;
  error?: string;
  /** What the last request asked for, in words (a group too big is cut to its first rows). */
  asked?: string;
  retry(): void;
  compute(sources: number[], destinations: number[]): void;
  cancel(): void;
}

export function useReachMatrix(bundleId: string): ReachState {
  const [data, setData] = useState<ReachMatrixView>();
  const [running, setRunning] = useState(true);
  const [step, setStep] = useState<BundleStep>();
  const [error, setError] = useState<string>();
  const [asked, setAsked] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const held = useRef<ReachMatrixView | undefined>(undefined);

  useEffect(() => {
    let live = true;
    let busy = false;
    let again = false;
    held.current = undefined;
    setData(undefined);
    setError(undefined);
    const pull = () => {
      if (!live) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      const have = held.current;
      api.reachMatrix({ bundleId, from: have?.cells.length ?? 0 }).then(
        (snap) => {
          busy = false;
          if (!live) return;
          const cur = held.current;
          // The node is still being read: the next event of the step says when to ask again.
          if (!snap.ready) {
            setRunning(true);
            if (again) {
              again = false;
              pull();
            }
            return;
          }
          if (!cur || snap.from === 0) held.current = { sources: snap.sources, destinations: snap.destinations, cells: snap.cells, notes: snap.notes };
          else if (snap.from === cur.cells.length) held.current = { ...cur, cells: snap.cells.length ? [...cur.cells, ...snap.cells] : cur.cells, notes: snap.notes };
          else {
            // Out of step (the worker started again): everything again.
            held.current = undefined;
            again = true;
          }
          if (held.current) setData(held.current);
          setRunning(snap.running);
          setError(undefined);
          if (again) {
            again = false;
            pull();
          }
        },
        (e: unknown) => {
          busy = false;
          if (live) setError(errorText(e));
        },
      );
    };
    const off = api.subscribe(
      (e) => {
        if (!live || e.type !== 'step' || e.job.jobId !== `${bundleId}:reach`) return;
        setStep(e.job);
        pull();
      },
      () => pull(),
    );
    pull();
    return () => {
      live = false;
      off();
    };
  }, [bundleId, attempt]);

  const compute = useCallback(
    (sources: number[], destinations: number[]) => {
      if (!sources.length || !destinations.length) return;
      // A block too big for one request: its first rows.
      const rows = Math.max(1, Math.floor(ASK_MAX_CELLS / destinations.length));
      const src = sources.slice(0, rows);
      const dst = destinations.slice(0, ASK_MAX_CELLS);
      const n = src.length * dst.length;
      setAsked(`Working out what is not worked out yet among ${n.toLocaleString('en-US')} cell${n === 1 ? '' : 's'}${src.length < sources.length ? ` (the first ${src.length} of ${sources.length} rows: ask again for the rest)` : ''}…`);
      setRunning(true);
      api.reachCompute({ bundleId, sources: src, destinations: dst }).catch((e: unknown) => setAsked(`Could not work them out: ${errorText(e)}`));
    },
    [bundleId],
  );
  const cancel = useCallback(() => void api.cancelReach({ bundleId }), [bundleId]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { data, running, step, error, asked: running ? asked : undefined, retry, compute, cancel };
}
