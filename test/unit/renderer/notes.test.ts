import { describe, expect, it, vi } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import * as M from '../../../renderer/src/notes/model.ts';
import type { Notes } from '../../../analysis/report/notes.ts';
import { filterDiff, isIdentical, counterRows, signed, byPort } from '../../../renderer/src/diff/model.ts';
import { flowKey, includedTraces, reportFileName } from '../../../renderer/src/report/model.ts';
import type { DiffResult } from '../../../analysis/diff/types.ts';
import { fakeApi, flush } from './fake-api.ts';

const NOW = '2025-01-02T03:04:05.000Z';
const FLOW = { srcIp: '10.244.32.3', dstIp: '10.96.0.10', dstPort: 53, proto: 'udp' as const };

function doc(extra: Partial<Notes> = {}): Notes {
  return { schema: 1, bundle: { hash: 'sha256:x', location: '/b' }, title: '', summary: '', notes: [], traces: [], revision: 0, ...extra };
}

describe('notes model', () => {
  it('builds the README refs for hops, findings and objects', () => {
    expect(M.hopTarget(FLOW, 3)).toEqual({ kind: 'hop', ref: 'trace:10.244.32.3-10.96.0.10:53/udp#3' });
    expect(M.hopTarget({ srcIp: '1.1.1.1', dstIp: '2.2.2.2', proto: 'icmp' }, 0).ref).toBe('trace:1.1.1.1-2.2.2.2/icmp#0');
    expect(M.findingTarget('lb-stale-dip#1')).toEqual({ kind: 'finding', ref: 'finding:lb-stale-dip#1' });
    expect(M.objectTarget({ type: 'endpoint', id: 'abc' })).toEqual({ kind: 'object', ref: 'object:endpoint:abc' });
  });

  it('adds, edits and deletes notes without touching the old document', () => {
    const d0 = doc();
    const d1 = M.addNote(d0, M.findingTarget('k'), 'first', 'n1', NOW);
    expect(d0.notes).toHaveLength(0);
    expect(d1.notes).toEqual([{ id: 'n1', target: { kind: 'finding', ref: 'finding:k' }, text: 'first', createdAt: NOW, updatedAt: NOW }]);
    const d2 = M.editNote(d1, 'n1', 'changed', '2025-02-02T00:00:00.000Z');
    expect(d2.notes[0]).toMatchObject({ text: 'changed', createdAt: NOW, updatedAt: '2025-02-02T00:00:00.000Z' });
    expect(M.editNote(d2, 'n1', 'changed', 'x')).toBe(d2);
    expect(M.deleteNote(d2, 'n1').notes).toEqual([]);
    expect(M.deleteNote(d2, 'nope')).toBe(d2);
    expect(M.notesOn(d2, M.findingTarget('k'))).toHaveLength(1);
    expect(M.noteCounts(d2).get('finding:k')).toBe(1);
  });

  it('counts hop notes of one walk only', () => {
    let d = doc();
    d = M.addNote(d, M.hopTarget(FLOW, 2), 'a', 'a', NOW);
    d = M.addNote(d, M.hopTarget(FLOW, 2), 'b', 'b', NOW);
    d = M.addNote(d, M.hopTarget({ ...FLOW, dstPort: 54 }, 2), 'c', 'c', NOW);
    expect([...M.hopNoteCounts(d, FLOW)]).toEqual([[2, 2]]);
  });

  it('keeps the walks unique and strips undefined fields', () => {
    let d = M.addTrace(doc(), { ...FLOW, srcPort: undefined });
    expect(d.traces).toEqual([FLOW]);
    expect(Object.keys(d.traces[0])).not.toContain('srcPort');
    expect(M.addTrace(d, FLOW)).toBe(d);
    d = M.addTrace(d, { ...FLOW, dip: '10.244.33.3' });
    expect(d.traces).toHaveLength(2);
    expect(M.removeTrace(d, FLOW).traces).toEqual([{ ...FLOW, dip: '10.244.33.3' }]);
  });

  it('limits the title', () => {
    expect(M.setTitle(doc(), 'x'.repeat(400)).title).toHaveLength(300);
  });

  it('undoes and redoes, coalescing typing in the title', () => {
    let h = M.historyOf(doc());
    h = M.record(h, M.setTitle(h.present, 'A'), 'title');
    h = M.record(h, M.setTitle(h.present, 'AB'), 'title');
    h = M.record(h, M.addNote(h.present, M.REPORT_TARGET, 'n', 'n', NOW));
    expect(h.past).toHaveLength(2);
    h = M.undo(h);
    expect(h.present.notes).toHaveLength(0);
    expect(h.present.title).toBe('AB');
    h = M.undo(h);
    expect(h.present.title).toBe('');
    expect(M.undo(h)).toBe(h);
    h = M.redo(h);
    expect(h.present.title).toBe('AB');
    h = M.redo(h);
    expect(h.present.notes).toHaveLength(1);
    expect(M.redo(h)).toBe(h);
    // A new edit after an undo drops the redo branch.
    h = M.undo(h);
    h = M.record(h, M.setSummary(h.present, 's'));
    expect(h.future).toEqual([]);
  });

  it('recognises a stale refusal however it is wrapped', () => {
    expect(M.isStaleError('stale: revision 3 is not 2')).toBe(true);
    expect(M.isStaleError("Error invoking remote method 'saveNotes': Error: stale: x")).toBe(true);
    expect(M.isStaleError('cannot write: EACCES')).toBe(false);
  });
});

describe('notes slice', () => {
  async function setup(api = fakeApi(), custom = false) {
    const a = api as unknown as Record<string, ReturnType<typeof vi.fn>> & ReturnType<typeof fakeApi>;
    if (!custom) {
      a.getNotes = vi.fn(async () => doc({ revision: 4 }));
      a.saveNotes = vi.fn(async (req: { baseRevision: number }) => ({ revision: req.baseRevision + 1 }));
    }
    const store = createAppStore({ api: a, notesSaveDelayMs: 1, now: () => NOW });
    await store.getState().init();
    await store.getState().open({ path: '/b' });
    await store.getState().loadNotes();
    return { store, api: a };
  }

  it('loads the notes with the bundle and saves edits with the base revision', async () => {
    const { store, api } = await setup();
    expect(store.getState().notes?.revision).toBe(4);
    store.getState().addNote(M.hopTarget(FLOW, 1), '  the DNAT picks a dead pod  ');
    expect(store.getState().notes!.notes[0].text).toBe('the DNAT picks a dead pod');
    expect(await store.getState().flushNotes()).toBe(true);
    expect(api.saveNotes).toHaveBeenCalledTimes(1);
    const req = (api.saveNotes as unknown as ReturnType<typeof vi.fn>).mock.calls[0][0];
    expect(req.baseRevision).toBe(4);
    expect(req.notes.notes[0].target.ref).toBe('trace:10.244.32.3-10.96.0.10:53/udp#1');
    expect(Object.keys(req.notes).sort()).toEqual(['notes', 'summary', 'title', 'traces']);
    store.getState().setReportTitle('DNS fails');
    await store.getState().flushNotes();
    expect((api.saveNotes as unknown as ReturnType<typeof vi.fn>).mock.calls[1][0].baseRevision).toBe(5);
    expect(store.getState().notesStatus).toBe('saved');
  });

  it('autosaves after the debounce', async () => {
    const { store, api } = await setup();
    store.getState().addNote(M.REPORT_TARGET, 'x');
    await new Promise((r) => setTimeout(r, 30));
    await flush();
    expect(api.saveNotes).toHaveBeenCalled();
  });

  it('undo and redo move through edits and are saved', async () => {
    const { store, api } = await setup();
    const s = store.getState;
    s().addNote(M.findingTarget('f'), 'one');
    s().addNote(M.objectTarget({ type: 'endpoint', id: 'e' }), 'two');
    const id = s().notes!.notes[0].id;
    s().editNote(id, 'one, edited');
    expect(s().notes!.notes.map((n) => n.text)).toEqual(['one, edited', 'two']);
    s().undoNotes();
    expect(s().notes!.notes.map((n) => n.text)).toEqual(['one', 'two']);
    s().undoNotes();
    expect(s().notes!.notes.map((n) => n.text)).toEqual(['one']);
    s().redoNotes();
    s().redoNotes();
    expect(s().notes!.notes.map((n) => n.text)).toEqual(['one, edited', 'two']);
    s().editNote(id, '   ');
    expect(s().notes!.notes.map((n) => n.text)).toEqual(['two']);
    await s().flushNotes();
    expect((api.saveNotes as unknown as ReturnType<typeof vi.fn>).mock.calls.at(-1)![0].notes.notes.map((n: { text: string }) => n.text)).toEqual(['two']);
  });

  it('on a stale save reloads the notes and tells the user', async () => {
    let calls = 0;
    const api = fakeApi();
    Object.assign(api, {
      getNotes: vi.fn(async () => doc({ revision: calls++ === 0 ? 1 : 7, title: calls > 1 ? 'from the other window' : '' })),
      saveNotes: vi.fn(async () => Promise.reject(new Error('stale: the notes were saved by another window (revision 7)'))),
    });
    const { store } = await setup(api, true);
    store.getState().setReportTitle('mine');
    expect(await store.getState().flushNotes()).toBe(false);
    expect(store.getState().notes!.title).toBe('from the other window');
    expect(store.getState().notesHistory!.past).toEqual([]);
    expect(store.getState().toasts.at(-1)!.message).toMatch(/another window/);
  });

  it('forgets the notes when the bundle closes', async () => {
    const { store } = await setup();
    await store.getState().closeBundle();
    expect(store.getState().notes).toBeUndefined();
  });
});

function diffResult(extra: Partial<DiffResult> = {}): DiffResult {
  const side = { location: '/a', hostName: 'h', counts: {} as DiffResult['a']['counts'] };
  const sec = (kind: DiffResult['sections'][number]['kind'], title: string) => ({ kind, title, added: [], removed: [], changed: [], unchanged: 3 });
  return {
    schema: 'hnsight-diff/1',
    a: side,
    b: { ...side, location: '/b' },
    sameHost: true,
    sections: [sec('network', 'HNS networks'), sec('route', 'IPv4 routes'), sec('rule', 'VFP rules')],
    counters: [],
    findings: { appeared: [], disappeared: [] },
    totals: { added: 0, removed: 0, changed: 0 },
    ...extra,
  };
}

describe('diff model', () => {
  it('says identical only when nothing differs', () => {
    expect(isIdentical(diffResult())).toBe(true);
    expect(isIdentical(diffResult({ findings: { appeared: [{ id: 'x', severity: 'error', title: 't', objects: [] }], disappeared: [] } }))).toBe(false);
  });

  it('filters by kind and text, hiding unchanged sections', () => {
    const r = diffResult();
    r.sections[1] = { ...r.sections[1], changed: [{ key: '10.244.33.0/24 via 10.240.0.20', label: 'route 10.244.33.0/24', fields: [{ field: 'metric', a: '271', b: '99' }] }] };
    r.sections[2] = { ...r.sections[2], added: [{ key: 'p1/L/G/R1', label: 'rule R1' }, { key: 'p2/L/G/R2', label: 'rule R2' }] };
    const all = filterDiff(r, { kinds: new Set(), onlyChanged: true, query: '' });
    expect(all.sections.map((s) => s.kind)).toEqual(['route', 'rule']);
    expect(all.shown).toBe(3);
    expect(filterDiff(r, { kinds: new Set(), onlyChanged: false, query: '' }).sections).toHaveLength(3);
    expect(filterDiff(r, { kinds: new Set(['route']), onlyChanged: true, query: '' }).sections.map((s) => s.kind)).toEqual(['route']);
    const q = filterDiff(r, { kinds: new Set(), onlyChanged: false, query: '99' });
    expect(q.sections.map((s) => s.kind)).toEqual(['route']);
    expect(byPort(r.sections[2].added).map((g) => g.port)).toEqual(['p1', 'p2']);
  });

  it('formats counter deltas', () => {
    const rows = counterRows({ key: 'k', label: 'l', a: { matchedPackets: 10, droppedPackets: 0 }, b: { matchedPackets: 25, droppedPackets: 0 }, delta: { matchedPackets: 15, droppedPackets: 0 } });
    expect(rows).toEqual([{ key: 'matchedPackets', label: 'matched packets', a: 10, b: 25, delta: 15 }]);
    expect(signed(1500)).toBe('+1,500');
    expect(signed(-2)).toBe('−2');
  });
});

describe('export model', () => {
  it('names files', () => {
    expect(reportFileName('akswin 01', 'md')).toBe('hnsight-akswin-01-report.md');
    expect(reportFileName('akswin01', 'html', true)).toBe('hnsight-node-report.html');
    expect(reportFileName('akswin01', 'pdf')).toBe('hnsight-akswin01-report.pdf');
  });

  it('includes the walks not unticked', () => {
    const t = [FLOW, { ...FLOW, dip: '1.2.3.4' }];
    expect(includedTraces(t, new Set([flowKey(t[1])]))).toEqual([FLOW]);
  });
});
