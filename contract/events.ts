// What the backend pushes to the renderer without being asked: job updates (loads, collections,
// comparisons, and the steps each open bundle takes after its load). IPC events in the
// desktop app, Server-Sent Events (GET /events) in browser mode. Each event carries the job's whole
// state, so a client that missed one is right again with the next; a client that subscribes late
// asks for the state once (getJob, getCollectJob, getDiff) and follows the events from there.
import type { BundleStep, CollectJob, DiffJob, LoadJob } from './replies.ts';

export type ApiEvent =
  | { type: 'load'; job: LoadJob }
  | { type: 'collect'; job: CollectJob }
  | { type: 'diff'; job: DiffJob }
  /** A step of an open bundle (its checks, its search index): progress, done, error. */
  | { type: 'step'; job: BundleStep };

export type ApiEventType = ApiEvent['type'];
export type ApiEventOf<T extends ApiEventType> = Extract<ApiEvent, { type: T }>;
export type ApiEventListener = (event: ApiEvent) => void;

/** The IPC channel of events (desktop app) and the path of the event stream (browser mode). */
export const EVENT_CHANNEL = 'hnsight:event';
export const EVENT_PATH = '/events';
