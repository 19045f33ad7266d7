// Handler of the Services table: each Service port of the kubectl snapshot and whether this node
// realises it — the same rows as `inspect --json`'s `services` (analysis/checks/service-states.ts)
// with the table's columns (analysis/view-models/services-table.ts). Worked out once per node in a
// worker thread (services-runner.ts: on a 2,000-Service node it took many seconds, and on this thread
// every other request waited), within the analysis budget (over it: said, never a partial table), and
// kept while the node is open. Its progress is the node's 'services' step.
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

/** How long getServices waits for the table before it answers null ("still being worked out"). */
export const SERVICES_ANSWER_WITHIN_MS = 10_000;

export function servicesHandlers({ bundles }: BackendContext, waitMs = SERVICES_ANSWER_WITHIN_MS): Pick<Handlers, 'getServices'> {
  return {
    // At most waitMs: a request must not stay silent past browser mode's idle socket timeout (30 s).
    // null: still under way; the 'services' step's events say when it ends (then ask again).
    getServices: async ({ bundleId }) => {
      const run = bundles.get(bundleId).services.get();
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        return await Promise.race([run, new Promise<null>((r) => (timer = setTimeout(() => r(null), waitMs)))]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
