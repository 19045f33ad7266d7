// Findings slice: what the checks found (loaded with the bundle: the rail and the summary show the
// counts), the severity filter, the finding being looked at (its objects light up on the graph), and
// the CNI ADD timelines from the bundle's logs. The backend runs the checks in the background; while
// they run, their step (which check, how many of how many) is followed from its events.
import type { FindingView } from '../../../analysis/findings/types.ts';
import type { BundleStep } from '../../../contract/index.ts';
import type { SandboxTimeline } from '../../../analysis/timeline/types.ts';
import type { Severity } from '../findings/model.ts';
import { errorMessage, type SliceCreator } from './types.ts';
import { tabId } from './tab-id.ts';

export interface FindingsSlice {
  findings?: FindingView[];
  findingsError?: string;
  findingsLoading: boolean;
  /** The backend's checks step while they run (progress), or how it ended. */
  findingsStep?: BundleStep;
  /** Severities shown in the panel. */
  severityShown: Severity[];
  /** The finding whose objects are lit on the graph. */
  activeFinding?: string;
  timelines?: SandboxTimeline[];
  timelinesError?: string;
  /**
   * Loads the findings of the open node, following the checks' step while they run. `attached`: this
   * window's attachBundle for the node, which starts the checks; the step is asked about once it is
   * answered.
   */
  loadFindings(attached?: Promise<unknown>): Promise<void>;
  /** The panel's Retry after the checks failed: runs them again and follows them, no request held open on them. */
  retryFindings(): Promise<void>;
  loadTimelines(): Promise<void>;
  toggleSeverity(s: Severity): void;
  setActiveFinding(key: string | undefined): void;
  /** Opens the findings panel on one finding (from the walk's verdict, the summary). */
  showFinding(key: string): void;
  /** Runs the walk a finding carries and shows its deciding hop. */
  walkFinding(key: string): Promise<void>;
  resetFindings(): void;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends FindingsSlice {}
}

export const createFindingsSlice: SliceCreator<FindingsSlice> = (deps) => (set, get) => {
  /** Ends the wait for a checks run under way when the window leaves its node (resetFindings). */
  let stopWaiting: (() => void) | undefined;
  return {
    findingsLoading: false,
    severityShown: ['error', 'warning', 'info'],

    async loadFindings(attached) {
      const b = get().bundle;
      if (!b) return;
      set({ findingsLoading: true, findingsError: undefined, findingsStep: undefined });
      const stepId = `${b.id}:findings`;
      let finished = false;
      let resolve: (step?: BundleStep) => void = () => undefined;
      const end = new Promise<BundleStep | undefined>((r) => (resolve = r));
      const ended = (step?: BundleStep) => {
        finished = true;
        resolve(step);
      };
      const take = (step: BundleStep) => {
        if (finished) return;
        if (get().bundle?.id !== b.id) return ended();
        set({ findingsStep: step });
        if (step.state === 'done' || step.state === 'error') ended(step);
      };
      const off = deps.api.subscribe((e) => {
        if (e.type === 'step' && e.job.jobId === stepId) take(e.job);
      });
      try {
        // Asked before the attach that starts them, the checks' step still says 'waiting', and the
        // getFindings below would start them itself and hold its request open until they end: when the
        // window moves to another node meanwhile (a paste added replaces it), closing this one stops
        // the checks and that request ends in a 404 nobody asked for.
        if (attached) {
          await attached.catch(() => undefined);
          if (get().bundle?.id !== b.id) return;
        }
        // A run under way (a window attaching starts it) is followed by its events, not waited for by a
        // request held open: a window that moves to another node closes this one, which stops its checks,
        // and a request still waiting on them would end in an error the page never asked for.
        const now = await deps.api.getStep({ bundleId: b.id, step: 'findings' });
        if (now.state === 'running') {
          take(now);
          stopWaiting = () => ended();
          const last = await end;
          if (get().bundle?.id !== b.id) return;
          if (last?.state === 'error') {
            set({ findingsLoading: false, findingsError: last.error ?? 'the checks stopped' });
            return;
          }
        }
        const findings = await deps.api.getFindings({ bundleId: b.id });
        if (get().bundle?.id === b.id) set({ findings, findingsLoading: false });
      } catch (e) {
        if (get().bundle?.id === b.id) set({ findingsLoading: false, findingsError: errorMessage(e) });
      } finally {
        off();
      }
    },

    retryFindings() {
      const b = get().bundle;
      if (!b) return Promise.resolve();
      // Attaching again (the window already holds the node) starts a failed step anew in the
      // background; getFindings would run it too, but hold its request open until it ends, and a
      // window that moves to another node meanwhile would see that request fail.
      return get().loadFindings(deps.api.attachBundle({ bundleId: b.id, client: tabId(deps.tabStorage) }));
    },

    async loadTimelines() {
      const b = get().bundle;
      if (!b) return;
      try {
        const timelines = await deps.api.getTimelines({ bundleId: b.id });
        if (get().bundle?.id === b.id) set({ timelines, timelinesError: undefined });
      } catch (e) {
        if (get().bundle?.id === b.id) set({ timelines: [], timelinesError: errorMessage(e) });
      }
    },

    toggleSeverity(s) {
      const shown = get().severityShown;
      set({ severityShown: shown.includes(s) ? shown.filter((x) => x !== s) : [...shown, s] });
    },

    setActiveFinding(key) {
      set({ activeFinding: key });
    },

    showFinding(key) {
      const f = get().findings?.find((x) => x.key === key);
      const shown = get().severityShown;
      set({
        activeFinding: key,
        panel: 'findings',
        inspectorOpen: true,
        view: 'topology',
        ...(f && !shown.includes(f.severity) ? { severityShown: [...shown, f.severity] } : {}),
      });
    },

    async walkFinding(key) {
      const f = get().findings?.find((x) => x.key === key);
      if (!f?.trace) return;
      set({ activeFinding: key, panel: 'walk', inspectorOpen: true, view: 'topology' });
      await get().runWalk({ ...f.trace }, { focus: 'deciding' });
    },

    resetFindings() {
      stopWaiting?.();
      stopWaiting = undefined;
      set({ findings: undefined, findingsError: undefined, findingsLoading: false, findingsStep: undefined, activeFinding: undefined, timelines: undefined, timelinesError: undefined });
    },
  };
};
