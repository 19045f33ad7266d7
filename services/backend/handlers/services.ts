// Handler of the Services table: each Service port of the kubectl snapshot and whether this node
// realises it — the same rows as `inspect --json`'s `services` (analysis/checks/service-states.ts)
// with the table's columns (analysis/view-models/services-table.ts). Worked out once per node, within
// the analysis budget (over it: said, never a partial table), and kept while the node is open.
import type { NodeModel } from '../../../parsers/model/types.ts';
import { servicesTable, type ServicesTableView } from '../../../analysis/view-models/services-table.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';
import { budgeted } from '../budgeted.ts';

const tables = new WeakMap<NodeModel, ServicesTableView>();

export function servicesHandlers({ bundles }: BackendContext): Pick<Handlers, 'getServices'> {
  return {
    getServices: async ({ bundleId }) => {
      const m = bundles.get(bundleId).model;
      const kept = tables.get(m);
      if (kept) return kept;
      const view = budgeted('the Services table', () => servicesTable(m));
      tables.set(m, view);
      return view;
    },
  };
}
