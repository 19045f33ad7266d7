// Mirrors the app phase onto #root[data-app-state] — what tests and automation wait for.
import { useEffect } from 'react';
import { useApp } from '../store/app-store.ts';
import { appPhase, type AppPhase } from '../store/session.ts';

export function useAppPhase(): AppPhase {
  const phase = useApp((s) => appPhase(s));
  useEffect(() => {
    document.getElementById('root')?.setAttribute('data-app-state', phase);
  }, [phase]);
  return phase;
}
