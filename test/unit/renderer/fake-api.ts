// A scripted HnsightApi for the store tests: every method is a vi.fn with a sensible default.
import { vi } from 'vitest';
import type { ApiEvent, HnsightApi, LoadJob } from '../../../contract/index.ts';
import type { BundleSummary } from '../../../analysis/view-models/types.ts';

export function summary(id = 'b1', extra: Partial<BundleSummary> = {}): BundleSummary {
  return {
    id,
    location: '/bundles/node',
    sourceKind: 'folder',
    hostName: 'akswin000000',
    networkTypes: ['l2bridge'],
    counts: { networks: 1, endpoints: 2, localEndpoints: 1, remoteEndpoints: 1, loadBalancers: 1, compartments: 2, adapters: 2, vfpPorts: 2, vfpLayers: 4, vfpRules: 10, ipv4Routes: null },
    files: [],
    filesRead: 3,
    filesListed: 1,
    filesBroken: 0,
    unmatched: [],
    loadMs: 12,
    ...extra,
  };
}

export function job(state: LoadJob['state'], extra: Partial<LoadJob> = {}): LoadJob {
  return { jobId: 'job-1', state, location: '/bundles/node', progress: { phase: 'reading', filesDone: 1, filesTotal: 4, bytesDone: 10, bytesTotal: 40 }, ...extra };
}

/** An event channel the test drives: subscribe as the API does, emit as the backend would. */
export function fakeEvents() {
  const listeners = new Set<(e: ApiEvent) => void>();
  return {
    subscribe: vi.fn((l: (e: ApiEvent) => void) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    }),
    emit: (e: ApiEvent) => {
      for (const l of [...listeners]) l(e);
    },
    listeners: () => listeners.size,
  };
}

export function fakeApi(overrides: Partial<Record<keyof HnsightApi, unknown>> = {}) {
  const events = fakeEvents();
  const api = {
    subscribe: events.subscribe,
    emit: events.emit,
    listeners: events.listeners,
    openFile: vi.fn(async () => ({ jobId: 'job-1' })),
    info: vi.fn(async () => ({ mode: 'browser', version: '0', demos: [], nativeDialogs: false, liveCollection: false })),
    openBundle: vi.fn(async () => ({ jobId: 'job-1' })),
    openDemo: vi.fn(async () => ({ jobId: 'job-1' })),
    pickBundle: vi.fn(async () => null),
    getJob: vi.fn(async () => job('done', { summary: summary() })),
    cancelLoad: vi.fn(async () => ({ ok: true })),
    listRecent: vi.fn(async () => []),
    closeBundle: vi.fn(async () => ({ ok: true })),
    listOpen: vi.fn(async () => ({ bundles: [], loads: [] })),
    attachBundle: vi.fn(async (req: { bundleId: string }) => summary(req.bundleId)),
    getStep: vi.fn(async (req: { bundleId: string; step: 'findings' | 'search' }) => ({ jobId: `${req.bundleId}:${req.step}`, bundleId: req.bundleId, step: req.step, state: 'done' })),
    getTopology: vi.fn(async () => ({ nodes: [], edges: [], collapsed: false })),
    getInventory: vi.fn(async () => []),
    search: vi.fn(async () => []),
    inspect: vi.fn(async (req: { ref: { type: string; id: string } }) => ({ ref: req.ref, title: req.ref.id, fields: [], related: [], notes: [] })),
    walk: vi.fn(async () => {
      throw new Error('no walk scripted');
    }),
    walkPresets: vi.fn(async () => []),
    getFindings: vi.fn(async () => []),
    getTimelines: vi.fn(async () => []),
    getExcerpt: vi.fn(async (req: { file: string; line: number }) => ({ file: req.file, start: 1, lines: ['a'], focus: req.line })),
    getNotes: vi.fn(async () => ({ schema: 1, bundle: { hash: 'h', location: '/bundles/node' }, title: '', summary: '', notes: [], traces: [], revision: 0 })),
    saveNotes: vi.fn(async (req: { baseRevision: number }) => ({ revision: req.baseRevision + 1 })),
    onCommand: vi.fn(() => () => {}),
    ...overrides,
  };
  return api as typeof api & HnsightApi;
}

export const flush = () => new Promise((r) => setTimeout(r, 0));
