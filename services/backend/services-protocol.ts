// What the backend and the Services worker (services-worker-main.ts) say to each other. Plain data:
// messages cross a thread.
import type { HandedFile } from './revive-node.ts';
import type { ServicesTableView } from '../../analysis/view-models/services-table.ts';
import type { BundleOrigin } from '../bundle/origin.ts';

export interface ServicesRequest {
  origin: BundleOrigin;
  /** Files parsed by the load, taken over (VFP dumps whose bytes are shared memory, small files' packed records). */
  reuse: HandedFile[];
}

export type ServicesMessage =
  | { type: 'progress'; done: number; total: number; what?: string }
  | { type: 'done'; view: ServicesTableView }
  /** `overBudget`: the table ran over the analysis budget (said as "not evaluated"), not a fault of the server. */
  | { type: 'error'; message: string; overBudget?: boolean };
