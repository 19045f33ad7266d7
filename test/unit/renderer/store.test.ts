import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { appPhase } from '../../../renderer/src/store/session.ts';
import { clampInspectorWidth, resolveTheme, THEME_KEY } from '../../../renderer/src/store/ui.ts';
import { fakeApi, flush, job, summary } from './fake-api.ts';

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('session slice', () => {
  it('is loading until info answers, then ready with no bundle', async () => {
    const api = fakeApi();
    const store = createAppStore({ api });
    expect(appPhase(store.getState())).toBe('loading');
    await store.getState().init();
    expect(appPhase(store.getState())).toBe('ready');
    expect(store.getState().bundle).toBeUndefined();
  });

  it('is in error when the backend cannot be reached', async () => {
    const api = fakeApi({ info: vi.fn(async () => Promise.reject(new Error('ECONNREFUSED'))) });
    const store = createAppStore({ api });
    await store.getState().init();
    expect(appPhase(store.getState())).toBe('error');
    expect(store.getState().fatal).toMatchObject({ kind: 'backend' });
    expect(store.getState().fatal!.message).toContain('ECONNREFUSED');
  });

  it('opens the initial bundle, follows the job events and stays loading until it is done', async () => {
    const api = fakeApi({
      info: vi.fn(async () => ({ mode: 'browser', version: '0', demos: [], nativeDialogs: false, liveCollection: false, initialBundle: '/b' })),
      getJob: vi.fn(async () => job('loading')),
    });
    const store = createAppStore({ api });
    const init = store.getState().init();
    await vi.waitFor(() => expect(api.listeners()).toBe(1));
    expect(api.openBundle).toHaveBeenCalledWith({ path: '/b' });
    expect(appPhase(store.getState())).toBe('loading');
    api.emit({ type: 'load', job: job('loading', { progress: { phase: 'reading', filesDone: 3, filesTotal: 4, bytesDone: 30, bytesTotal: 40 } }) });
    expect(store.getState().job?.progress.filesDone).toBe(3);
    expect(appPhase(store.getState())).toBe('loading');
    // Another job's events are not ours.
    api.emit({ type: 'load', job: job('done', { jobId: 'job-9', summary: summary('b9') }) });
    expect(appPhase(store.getState())).toBe('loading');
    api.emit({ type: 'load', job: job('done', { summary: summary('b7') }) });
    await init;
    await vi.waitFor(() => expect(api.listeners()).toBe(0));
    expect(store.getState().bundle?.id).toBe('b7');
    expect(store.getState().summaryOpen).toBe(true);
    expect(appPhase(store.getState())).toBe('ready');
    await flush();
    expect(api.getTopology).toHaveBeenCalledWith({ bundleId: 'b7', expandLoadBalancers: false });
    expect(api.getInventory).toHaveBeenCalledWith({ bundleId: 'b7' });
  });

  it('takes the state it fetched when the job ended before the events were followed', async () => {
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b3') })) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/fast' });
    expect(store.getState().bundle?.id).toBe('b3');
    await vi.waitFor(() => expect(api.listeners()).toBe(0));
  });

  it('turns a failed initial bundle into the error state, and a later failure into a toast', async () => {
    const api = fakeApi({
      info: vi.fn(async () => ({ mode: 'browser', version: '0', demos: [], nativeDialogs: false, liveCollection: false, initialBundle: '/bad' })),
      getJob: vi.fn(async () => job('error', { error: 'no such folder /bad' })),
    });
    const store = createAppStore({ api });
    await store.getState().init();
    expect(appPhase(store.getState())).toBe('error');
    expect(store.getState().fatal).toMatchObject({ kind: 'bundle', location: '/bad', message: 'no such folder /bad' });
    store.getState().dismissFatal();
    await store.getState().open({ path: '/bad2' });
    expect(appPhase(store.getState())).toBe('ready');
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: 'error', message: 'no such folder /bad' });
  });

  it('cancels through the backend and reports the cancellation', async () => {
    const api = fakeApi({
      getJob: vi.fn(async () => job('loading')),
      cancelLoad: vi.fn(async () => {
        api.emit({ type: 'load', job: job('cancelled') });
        return { ok: true };
      }),
    });
    const store = createAppStore({ api });
    const p = store.getState().open({ demo: 'l2bridge-node' });
    await vi.waitFor(() => expect(store.getState().job?.jobId).toBe('job-1'));
    await store.getState().cancelLoad();
    await p;
    expect(api.cancelLoad).toHaveBeenCalledWith({ jobId: 'job-1' });
    expect(store.getState().job?.state).toBe('cancelled');
    expect(store.getState().bundle).toBeUndefined();
    expect(store.getState().toasts.at(-1)?.kind).toBe('info');
  });

  it('a newer load makes an older one stop quietly', async () => {
    const api = fakeApi({
      getJob: vi.fn(async (req: { jobId: string }) => job('loading', { jobId: req.jobId })),
      openBundle: vi.fn().mockResolvedValueOnce({ jobId: 'job-1' }).mockResolvedValueOnce({ jobId: 'job-2' }),
    });
    const store = createAppStore({ api });
    const first = store.getState().open({ path: '/one' });
    await vi.waitFor(() => expect(api.listeners()).toBe(1));
    const second = store.getState().open({ path: '/two' });
    await vi.waitFor(() => expect(api.getJob).toHaveBeenCalledWith({ jobId: 'job-2' }));
    api.emit({ type: 'load', job: job('done', { jobId: 'job-1', summary: summary('b1') }) });
    await first;
    expect(store.getState().bundle).toBeUndefined();
    api.emit({ type: 'load', job: job('done', { jobId: 'job-2', summary: summary('b2') }) });
    await second;
    expect(store.getState().bundle?.id).toBe('b2');
  });

  it('closes the previous bundle when another loads', async () => {
    const api = fakeApi({ getJob: vi.fn().mockResolvedValueOnce(job('done', { summary: summary('b1') })).mockResolvedValueOnce(job('done', { summary: summary('b2') })) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    await store.getState().open({ path: '/two' });
    expect(store.getState().bundle?.id).toBe('b2');
    expect(api.closeBundle).toHaveBeenCalledWith(expect.objectContaining({ bundleId: 'b1' }));
  });
});

describe('session slice: one load per bundle, a reload takes back what the window had', () => {
  const info = { mode: 'browser', version: '0', demos: [], nativeDialogs: false, liveCollection: false, initialBundle: '/bundles/node' };

  it('attaches to the node it loaded and lets it go, with its window id, when it opens another', async () => {
    const tab = memoryStorage();
    const api = fakeApi({ getJob: vi.fn().mockResolvedValueOnce(job('done', { summary: summary('b1') })).mockResolvedValueOnce(job('done', { summary: summary('b2') })) });
    const store = createAppStore({ api, tabStorage: tab });
    await store.getState().open({ path: '/one' });
    const client = vi.mocked(api.attachBundle).mock.calls[0][0].client;
    expect(api.attachBundle).toHaveBeenCalledWith({ bundleId: 'b1', client });
    await store.getState().open({ path: '/two' });
    expect(api.closeBundle).toHaveBeenCalledWith({ bundleId: 'b1', client });
    expect(api.attachBundle).toHaveBeenLastCalledWith({ bundleId: 'b2', client });
  });

  it('a reloaded window takes back the node it had: no second load, no summary again', async () => {
    const tab = memoryStorage();
    const first = fakeApi({ info: vi.fn(async () => info), getJob: vi.fn(async () => job('done', { summary: summary('b1') })) });
    const before = createAppStore({ api: first, tabStorage: tab });
    await before.getState().init();
    expect(before.getState().bundle?.id).toBe('b1');
    const client = vi.mocked(first.attachBundle).mock.calls[0][0].client;
    // The page is reloaded: a new store over the same tab storage; the backend still has b1 open.
    const api = fakeApi({ info: vi.fn(async () => info), listOpen: vi.fn(async () => ({ bundles: [{ bundleId: 'b1', location: '/bundles/node', jobId: 'job-1', steps: [] }], loads: [] })) });
    const after = createAppStore({ api, tabStorage: tab });
    await after.getState().init();
    expect(api.openBundle).not.toHaveBeenCalled();
    expect(api.attachBundle).toHaveBeenCalledWith({ bundleId: 'b1', client });
    expect(after.getState().bundle?.id).toBe('b1');
    expect(after.getState().summaryOpen).toBe(false);
    await vi.waitFor(() => expect(api.getFindings).toHaveBeenCalledWith({ bundleId: 'b1' }));
  });

  it('a window reloaded during a load follows that load instead of starting another', async () => {
    const tab = memoryStorage();
    const first = fakeApi({ info: vi.fn(async () => info), openBundle: vi.fn(async () => ({ jobId: 'job-7' })), getJob: vi.fn(async () => job('loading', { jobId: 'job-7' })) });
    const before = createAppStore({ api: first, tabStorage: tab });
    void before.getState().init();
    await vi.waitFor(() => expect(first.listeners()).toBe(1));
    const api = fakeApi({
      info: vi.fn(async () => info),
      listOpen: vi.fn(async () => ({ bundles: [], loads: [job('loading', { jobId: 'job-7' })] })),
      getJob: vi.fn(async () => job('done', { jobId: 'job-7', summary: summary('b3') })),
    });
    const after = createAppStore({ api, tabStorage: tab });
    await after.getState().init();
    expect(api.openBundle).not.toHaveBeenCalled();
    expect(api.getJob).toHaveBeenCalledWith({ jobId: 'job-7' });
    expect(after.getState().bundle?.id).toBe('b3');
  });

  it('when the backend no longer has it, the reloaded window opens the initial bundle', async () => {
    const tab = memoryStorage();
    tab.setItem('hnsight.open', JSON.stringify({ bundleId: 'gone' }));
    const api = fakeApi({ info: vi.fn(async () => info) });
    const store = createAppStore({ api, tabStorage: tab });
    await store.getState().init();
    expect(api.attachBundle).not.toHaveBeenCalledWith(expect.objectContaining({ bundleId: 'gone' }));
    expect(api.openBundle).toHaveBeenCalledWith({ path: '/bundles/node' });
  });
});

describe('findings and search steps', () => {
  it('shows which check runs and how far while the backend computes the findings', async () => {
    let answer: (f: []) => void = () => undefined;
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), getFindings: vi.fn(() => new Promise((r) => (answer = r))) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    expect(store.getState().findingsLoading).toBe(true);
    const step = (done: number) => ({ jobId: 'b1:findings', bundleId: 'b1', step: 'findings' as const, state: 'running' as const, progress: { done, total: 14, what: 'Load balancers in VFP' } });
    api.emit({ type: 'step', job: step(4) });
    expect(store.getState().findingsStep?.progress).toEqual({ done: 4, total: 14, what: 'Load balancers in VFP' });
    api.emit({ type: 'step', job: { ...step(5), jobId: 'other:findings', bundleId: 'other' } });
    expect(store.getState().findingsStep?.progress?.done).toBe(4);
    await vi.waitFor(() => expect(api.getFindings).toHaveBeenCalled());
    answer([]);
    await vi.waitFor(() => expect(store.getState().findingsLoading).toBe(false));
    expect(store.getState().findings).toEqual([]);
  });

  it('asks about the checks only once the attach that starts them is answered', async () => {
    // Asked before, their step says 'waiting' and getFindings would hold a request open on the run,
    // which closing the node (a paste replacing it) stops: a 404 in the page.
    let attach: () => void = () => undefined;
    const api = fakeApi({
      getJob: vi.fn(async () => job('done', { summary: summary('b1') })),
      attachBundle: vi.fn((req: { bundleId: string }) => new Promise((r) => (attach = () => r(summary(req.bundleId))))),
    });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    await flush();
    expect(store.getState().findingsLoading).toBe(true);
    expect(api.getStep).not.toHaveBeenCalledWith({ bundleId: 'b1', step: 'findings' });
    expect(api.getFindings).not.toHaveBeenCalled();
    attach();
    await vi.waitFor(() => expect(store.getState().findingsLoading).toBe(false));
    expect(api.getStep).toHaveBeenCalledWith({ bundleId: 'b1', step: 'findings' });
    expect(api.getFindings).toHaveBeenCalledWith({ bundleId: 'b1' });
  });

  it('a failed check run is an error with the reason; loading again asks again', async () => {
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), getFindings: vi.fn().mockRejectedValueOnce(new Error('the checks ran out of memory')).mockResolvedValueOnce([]) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    await vi.waitFor(() => expect(store.getState().findingsError).toBe('the checks ran out of memory'));
    await store.getState().loadFindings();
    expect(store.getState().findingsError).toBeUndefined();
    expect(store.getState().findings).toEqual([]);
  });

  it('Retry after failed checks attaches again, which runs them anew, and follows them: no request held open on the run', async () => {
    const failed = { jobId: 'b1:findings', bundleId: 'b1', step: 'findings' as const, state: 'error' as const, error: 'the checks ran out of memory' };
    const running = { ...failed, state: 'running' as const, error: undefined };
    const getStep = vi.fn(async () => failed as typeof failed | typeof running);
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), getStep, getFindings: vi.fn().mockRejectedValueOnce(new Error('the checks ran out of memory')).mockResolvedValueOnce([]) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    await vi.waitFor(() => expect(store.getState().findingsError).toBe('the checks ran out of memory'));
    const attach = vi.mocked(api.attachBundle);
    const attaches = attach.mock.calls.length;
    // The backend restarts a failed step when a window attaches (services/backend/open-bundles.ts hold).
    getStep.mockImplementation(async () => running);
    const retried = store.getState().retryFindings();
    await vi.waitFor(() => expect(attach.mock.calls.length).toBe(attaches + 1));
    await flush();
    expect(store.getState().findingsLoading).toBe(true);
    expect(api.getFindings).toHaveBeenCalledTimes(1);
    api.emit({ type: 'step', job: { ...running, state: 'done' as const } });
    await retried;
    expect(api.getFindings).toHaveBeenCalledTimes(2);
    expect(store.getState().findingsError).toBeUndefined();
    expect(store.getState().findings).toEqual([]);
  });

  it('follows the search index step of the open bundle until it is built', async () => {
    const running = { jobId: 'b1:search', bundleId: 'b1', step: 'search' as const, state: 'running' as const, progress: { done: 1, total: 2, what: 'VFP rule texts in vfpOutput.txt (40 %)' } };
    const api = fakeApi({ getJob: vi.fn(async () => job('done', { summary: summary('b1') })), getStep: vi.fn(async () => running) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/one' });
    await vi.waitFor(() => expect(store.getState().searchStep?.progress?.what).toMatch(/40 %/));
    api.emit({ type: 'step', job: { ...running, state: 'error', progress: undefined, error: 'out of memory' } });
    expect(store.getState().searchStep?.error).toBe('out of memory');
    api.emit({ type: 'step', job: { ...running, state: 'done', progress: undefined } });
    expect(store.getState().searchStep?.state).toBe('done');
  });
});

describe('selection slice', () => {
  async function loaded(api = fakeApi()) {
    const store = createAppStore({ api });
    await store.getState().open({ path: '/x' });
    return store;
  }

  it('fetches the inspector view, keeps a back stack and asks the graph to zoom', async () => {
    const store = await loaded();
    await store.getState().select({ type: 'endpoint', id: 'a' }, { focusGraph: true });
    expect(store.getState().inspector?.title).toBe('a');
    expect(store.getState().focusSeq).toBe(1);
    await store.getState().select({ type: 'port', id: 'p' }, { rule: { name: 'LB_DSR_X' } });
    expect(store.getState().ruleFocus).toEqual({ name: 'LB_DSR_X' });
    expect(store.getState().focusSeq).toBe(1);
    expect(store.getState().back).toEqual([{ type: 'endpoint', id: 'a' }]);
    store.getState().goBack();
    await flush();
    expect(store.getState().selected).toEqual({ type: 'endpoint', id: 'a' });
    expect(store.getState().back).toEqual([]);
  });

  it('ignores an inspector answer that arrives after a newer selection', async () => {
    let release!: () => void;
    const api = fakeApi({
      inspect: vi.fn(async (req: { ref: { id: string } }) => {
        if (req.ref.id === 'slow') await new Promise<void>((r) => (release = r));
        return { ref: req.ref, title: req.ref.id, fields: [], related: [], notes: [] };
      }),
    });
    const store = await loaded(api);
    const slow = store.getState().select({ type: 'endpoint', id: 'slow' });
    await store.getState().select({ type: 'endpoint', id: 'fast' });
    release();
    await slow;
    expect(store.getState().inspector?.title).toBe('fast');
  });

  it('reports an inspect failure in the panel', async () => {
    const store = await loaded(fakeApi({ inspect: vi.fn(async () => Promise.reject(new Error('nothing in this bundle is port x'))) }));
    await store.getState().select({ type: 'port', id: 'x' });
    expect(store.getState().inspectorError).toContain('nothing in this bundle');
    expect(store.getState().inspector).toBeUndefined();
  });
});

describe('ui slice', () => {
  it('follows the OS until a theme is picked, and remembers the pick', () => {
    const storage = memoryStorage();
    const store = createAppStore({ api: fakeApi(), storage });
    expect(store.getState().themePref).toBe('system');
    expect(resolveTheme('system', true)).toBe('dark');
    store.getState().toggleTheme(true);
    expect(store.getState().themePref).toBe('light');
    expect(storage.m.get(THEME_KEY)).toBe('light');
    const again = createAppStore({ api: fakeApi(), storage });
    expect(again.getState().themePref).toBe('light');
  });

  it('clamps the inspector width and caps the toasts', () => {
    expect(clampInspectorWidth(10)).toBe(300);
    expect(clampInspectorWidth(5000)).toBe(900);
    const store = createAppStore({ api: fakeApi() });
    for (let i = 0; i < 6; i++) store.getState().toast('info', `t${i}`);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['t2', 't3', 't4', 't5']);
  });

  it('loads an excerpt for the open bundle', async () => {
    const api = fakeApi();
    const store = createAppStore({ api });
    await store.getState().open({ path: '/x' });
    await store.getState().openExcerpt('vfpOutput.txt', 42);
    expect(api.getExcerpt).toHaveBeenCalledWith({ bundleId: 'b1', file: 'vfpOutput.txt', line: 42, context: 12 });
    expect(store.getState().excerpt).toMatchObject({ loading: false, data: { focus: 42 } });
  });
});

describe('search slice', () => {
  it('drops answers to superseded queries', async () => {
    const resolvers: ((v: unknown) => void)[] = [];
    const api = fakeApi({ search: vi.fn(() => new Promise((r) => resolvers.push(r))) });
    const store = createAppStore({ api });
    await store.getState().open({ path: '/x' });
    const first = store.getState().runSearch('10.2');
    const second = store.getState().runSearch('10.24');
    resolvers[1]([{ ref: { type: 'endpoint', id: 'new' }, text: '10.244.0.5', context: '', score: 1 }]);
    resolvers[0]([{ ref: { type: 'endpoint', id: 'old' }, text: '10.2', context: '', score: 1 }]);
    await Promise.all([first, second]);
    expect(store.getState().hits.map((h) => h.ref.id)).toEqual(['new']);
    expect(store.getState().hitsFor).toBe('10.24');
  });

  it('wraps the active hit with the arrow keys', async () => {
    const hits = [0, 1, 2].map((i) => ({ ref: { type: 'endpoint' as const, id: String(i) }, text: '', context: '', score: 1 }));
    const store = createAppStore({ api: fakeApi({ search: vi.fn(async () => hits) }) });
    await store.getState().open({ path: '/x' });
    await store.getState().runSearch('1');
    store.getState().moveActive(-1);
    expect(store.getState().activeIndex).toBe(2);
    store.getState().moveActive(1);
    expect(store.getState().activeIndex).toBe(0);
  });

  it('does not call the backend for an empty query', async () => {
    const api = fakeApi();
    const store = createAppStore({ api });
    await store.getState().open({ path: '/x' });
    await store.getState().runSearch('   ');
    expect(api.search).not.toHaveBeenCalled();
  });
});
