// The OS colour scheme, live: the theme follows it until the user picks one.
import { useSyncExternalStore } from 'react';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

function subscribe(cb: () => void) {
  const mq = query();
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}

export function useSystemDark(): boolean {
  return useSyncExternalStore(subscribe, () => query().matches, () => false);
}
