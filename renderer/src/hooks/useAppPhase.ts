// Mirrors the app's state onto #root — what tests, the app benchmark and automation wait for:
// data-app-state (loading | ready | error), data-findings and data-presets (idle | loading | done |
// error) for the open bundle, data-bundle-id its id, data-walks the number of walk answers shown
// so far (a new answer to the same question counts too).
//
// The mirror is a component of its own that draws nothing (RootMarks): it follows every walk, and
// in the app shell that would re-render the whole page — the graph with it — on each walk.
import { useEffect, useRef } from 'react';
import { useApp } from '../store/app-store.ts';
import { appPhase, type AppPhase } from '../store/session.ts';

type Step = 'idle' | 'loading' | 'done' | 'error';

/** The app's phase alone: what the shell's class follows. */
export function useAppPhase(): AppPhase {
  return useApp((s) => appPhase(s));
}

export function RootMarks(): null {
  const phase = useAppPhase();
  const findings: Step = useApp((s) => (!s.bundle ? 'idle' : s.findingsLoading ? 'loading' : s.findingsError ? 'error' : s.findings ? 'done' : 'idle'));
  const bundleId = useApp((s) => s.bundle?.id ?? '');
  const presets: Step = useApp((s) => (!s.bundle ? 'idle' : s.presetsError ? 'error' : s.presets ? 'done' : 'loading'));
  const walk = useApp((s) => s.walk);
  const walks = useRef({ last: walk, count: 0 });
  if (walk && walk !== walks.current.last) walks.current = { last: walk, count: walks.current.count + 1 };
  const walkCount = walks.current.count;
  useEffect(() => {
    const root = document.getElementById('root');
    root?.setAttribute('data-app-state', phase);
    root?.setAttribute('data-findings', findings);
    root?.setAttribute('data-presets', presets);
    root?.setAttribute('data-bundle-id', bundleId);
    root?.setAttribute('data-walks', String(walkCount));
  }, [phase, findings, presets, bundleId, walkCount]);
  return null;
}
