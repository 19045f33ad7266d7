// What the app shell (App and its Workspace) reads from the store. The shell re-renders whenever one
// of these changes, and with it every child that is not memoized: none may change on a search, a
// walk or a step through it, or each of those would redraw the page (test/unit/renderer/
// shell-selectors.test.ts holds that). What follows walks for #root's marks is RootMarks
// (hooks/useAppPhase.ts), which draws nothing.
import type { AppState } from './types.ts';
import { appPhase } from './session.ts';

export const shell = {
  phase: (s: AppState) => appPhase(s),
  bundle: (s: AppState) => s.bundle,
  job: (s: AppState) => s.job,
  fatal: (s: AppState) => s.fatal,
  initialized: (s: AppState) => s.initialized,
  view: (s: AppState) => s.view,
  inspectorOpen: (s: AppState) => s.inspectorOpen,
  inspectorWidth: (s: AppState) => s.inspectorWidth,
  setInspectorWidth: (s: AppState) => s.setInspectorWidth,
  setInspectorOpen: (s: AppState) => s.setInspectorOpen,
} satisfies Record<string, (s: AppState) => unknown>;
