// The paste slice over a scripted API: the dialog previews the latest text only, refuses what is too
// big or blank before sending anything, keeps its text when the backend refuses, and adding follows
// the load like any open — joined with the node open now (which it then replaces) or as a new node.
import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { utf8Length } from '../../../renderer/src/lib/utf8-length.ts';
import { ApiError, PASTE_MAX_BYTES } from '../../../contract/index.ts';
import type { PastePreview } from '../../../analysis/view-models/paste-preview.ts';
import { fakeApi, flush, job, summary } from './fake-api.ts';

function preview(text: string, extra: Partial<PastePreview> = {}): PastePreview {
  return {
    name: 'pasted text.txt', bytes: text.length, kind: 'endpoint', kindWords: 'HNS endpoints', format: 'Get-HnsEndpoint | ConvertTo-Json',
    confidence: 0.95, reason: 'HNS endpoint JSON from line 2', near: [], yields: { endpoints: 2 }, usable: true, errors: 0, warnings: 0, issues: [], issueCount: 0,
    ...extra,
  };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('utf8Length', () => {
  it('measures as TextEncoder does, surrogate pairs and lone surrogates included', () => {
    for (const s of ['', 'abc', 'é', '→ 10.0.0.1', '😀x', '\ud800', 'a\udc00b', '中文 ipconfig']) expect(utf8Length(s), s).toBe(new TextEncoder().encode(s).length);
  });
});

describe('paste slice', () => {
  it('opens with a text and previews it as the backend reads it', async () => {
    const api = fakeApi({ recognisePaste: vi.fn(async (req: { text: string }) => preview(req.text)) });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('[{"ID":"1"}]');
    expect(store.getState().paste).toMatchObject({ text: '[{"ID":"1"}]', checking: true });
    await vi.waitFor(() => expect(store.getState().paste?.checking).toBe(false));
    expect(api.recognisePaste).toHaveBeenCalledWith({ text: '[{"ID":"1"}]' });
    expect(store.getState().paste).toMatchObject({ previewOf: '[{"ID":"1"}]', preview: { kindWords: 'HNS endpoints' } });
  });

  it('keeps only the preview of the latest text, whatever order the answers come in', async () => {
    const first = deferred<PastePreview>();
    const second = deferred<PastePreview>();
    const api = fakeApi({ recognisePaste: vi.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise) });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('one');
    store.getState().setPasteText('two');
    second.resolve(preview('two', { kindWords: 'VFP rules' }));
    await flush();
    first.resolve(preview('one', { kindWords: 'HNS endpoints' }));
    await flush();
    expect(store.getState().paste).toMatchObject({ text: 'two', previewOf: 'two', checking: false, preview: { kindWords: 'VFP rules' } });
  });

  it('asks once, for the last text, when the text changes faster than the preview delay', async () => {
    const api = fakeApi({ recognisePaste: vi.fn(async (req: { text: string }) => preview(req.text)) });
    const store = createAppStore({ api, pastePreviewDelayMs: 50 });
    store.getState().openPaste('a');
    store.getState().setPasteText('ab');
    store.getState().setPasteText('abc');
    expect(api.recognisePaste).not.toHaveBeenCalled();
    expect(store.getState().paste?.checking).toBe(true);
    await vi.waitFor(() => expect(store.getState().paste?.checking).toBe(false));
    expect(api.recognisePaste).toHaveBeenCalledTimes(1);
    expect(api.recognisePaste).toHaveBeenCalledWith({ text: 'abc' });
    expect(store.getState().paste?.previewOf).toBe('abc');
  });

  it('refuses a text over 64 MiB and a blank one without sending them', async () => {
    const api = fakeApi({ recognisePaste: vi.fn(async () => preview('')), addPaste: vi.fn(async () => ({ jobId: 'job-1' })) });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('é'.repeat(PASTE_MAX_BYTES / 2 + 1));
    expect(store.getState().paste?.error).toBe('The text is 64.1 MiB, more than the 64 MiB a paste holds. Save it as a file and open the file instead.');
    await store.getState().addPaste('new-node');
    expect(store.getState().paste?.addError).toMatch(/^The text is 64\.1 MiB/);
    store.getState().setPasteText('  \n ');
    expect(store.getState().paste?.error).toBeUndefined();
    await store.getState().addPaste('new-node');
    expect(store.getState().paste?.addError).toMatch(/nothing to add/);
    expect(api.recognisePaste).not.toHaveBeenCalled();
    expect(api.addPaste).not.toHaveBeenCalled();
  });

  it('opens the text as a new node and follows its load', async () => {
    const api = fakeApi({
      recognisePaste: vi.fn(async (req: { text: string }) => preview(req.text)),
      addPaste: vi.fn(async () => ({ jobId: 'job-1' })),
      getJob: vi.fn(async () => job('done', { location: 'pasted text', summary: summary('b-paste', { location: 'pasted text', sourceKind: 'file' }) })),
    });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('[{"ID":"1"}]');
    store.getState().setPasteName('  endpoints.txt ');
    await store.getState().addPaste('new-node');
    expect(api.addPaste).toHaveBeenCalledWith({ text: '[{"ID":"1"}]', name: 'endpoints.txt' });
    expect(store.getState().paste).toBeUndefined();
    expect(store.getState().bundle?.id).toBe('b-paste');
    expect(store.getState().summaryOpen).toBe(true);
  });

  it('adds to the node open now: joined in the backend, and the new node replaces the old one', async () => {
    const api = fakeApi({
      addPaste: vi.fn(async () => ({ jobId: 'job-2' })),
      recognisePaste: vi.fn(async (req: { text: string }) => preview(req.text)),
      getJob: vi.fn(async (req: { jobId: string }) => (req.jobId === 'job-2' ? job('done', { jobId: 'job-2', summary: summary('b2') }) : job('done', { summary: summary('b1') }))),
    });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    await store.getState().open({ path: '/b' });
    expect(store.getState().bundle?.id).toBe('b1');
    store.getState().openPaste('Policy for port : ...');
    await store.getState().addPaste('this-node');
    expect(api.addPaste).toHaveBeenCalledWith({ text: 'Policy for port : ...', bundleId: 'b1' });
    expect(store.getState().bundle?.id).toBe('b2');
    await flush();
    expect(api.closeBundle).toHaveBeenCalledWith(expect.objectContaining({ bundleId: 'b1' }));
  });

  it('keeps the dialog and its text when the backend refuses, and says why', async () => {
    const api = fakeApi({
      recognisePaste: vi.fn(async (req: { text: string }) => preview(req.text)),
      addPaste: vi.fn(async () => Promise.reject(new ApiError('this node is already built from 50 pastes', 'refused'))),
    });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('x');
    await store.getState().addPaste('this-node');
    expect(store.getState().paste?.addError).toMatch(/No node is open/);
    expect(api.addPaste).not.toHaveBeenCalled();
    await store.getState().addPaste('new-node');
    expect(store.getState().paste).toMatchObject({ text: 'x', adding: false, addError: 'this node is already built from 50 pastes', preview: { kindWords: 'HNS endpoints' } });
    expect(store.getState().bundle).toBeUndefined();
  });

  it('forgets a preview still on its way when the dialog closes', async () => {
    const answer = deferred<PastePreview>();
    const api = fakeApi({ recognisePaste: vi.fn(() => answer.promise) });
    const store = createAppStore({ api, pastePreviewDelayMs: 0 });
    store.getState().openPaste('x');
    store.getState().closePaste();
    answer.resolve(preview('x'));
    await flush();
    expect(store.getState().paste).toBeUndefined();
    store.getState().openPaste();
    expect(store.getState().paste).toMatchObject({ text: '', checking: false });
    expect(store.getState().paste?.preview).toBeUndefined();
  });
});
