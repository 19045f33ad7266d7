// Notes slice: the person's notes on hops, findings, objects and the report (title, summary, chosen
// walks), with undo/redo over every edit and a debounced autosave that names the revision it was
// based on. A save refused as stale (another window saved first) reloads the notes and says so.
import type { Flow } from '../../../analysis/walk/types.ts';
import * as M from '../notes/model.ts';
import type { History, Notes, NoteTarget } from '../notes/model.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export type NotesStatus = 'idle' | 'saving' | 'saved' | 'error';

export interface NotesSlice {
  /** The notes as edited now (history.present); undefined until loaded. */
  notes?: Notes;
  notesHistory?: History;
  notesStatus: NotesStatus;
  notesError?: string;
  /** The note being edited or added (its id, or 'new:<ref>'): one editor open at a time. */
  noteEditing?: string;
  loadNotes(): Promise<void>;
  addNote(target: NoteTarget, text: string): void;
  editNote(id: string, text: string): void;
  deleteNote(id: string): void;
  setReportTitle(title: string): void;
  setReportSummary(summary: string): void;
  addWalkToReport(flow: Flow): void;
  removeWalkFromReport(flow: Flow): void;
  undoNotes(): void;
  redoNotes(): void;
  setNoteEditing(key: string | undefined): void;
  /** Saves now what is waiting; resolves true when the backend has the present notes. */
  flushNotes(): Promise<boolean>;
  resetNotes(): void;
}

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends NotesSlice {}
}

export const NOTES_SAVE_MS = 600;

let idSeq = 0;
export function newNoteId(): string {
  const rnd = globalThis.crypto?.randomUUID?.().slice(0, 8) ?? Math.random().toString(36).slice(2, 10);
  return `n-${Date.now().toString(36)}-${rnd}-${++idSeq}`;
}

export const createNotesSlice: SliceCreator<NotesSlice> = (deps) => (set, get) => {
  const delay = deps.notesSaveDelayMs ?? NOTES_SAVE_MS;
  const now = deps.now ?? (() => new Date().toISOString());
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The revision the backend has, and the content it has at that revision. */
  let revision = 0;
  let saved: Notes | undefined;
  let saving: Promise<boolean> | undefined;
  /** Bumped on load/reset: an answer for older notes is ignored. */
  let epoch = 0;

  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void get().flushNotes();
    }, delay);
  };

  const apply = (fn: (doc: Notes) => Notes, coalesceKey?: string) => {
    const h = get().notesHistory;
    if (!h) return;
    const next = fn(h.present);
    if (next === h.present) return;
    const nh = M.record(h, next, coalesceKey);
    set({ notesHistory: nh, notes: nh.present });
    schedule();
  };

  const move = (fn: (h: History) => History) => {
    const h = get().notesHistory;
    if (!h) return;
    const nh = fn(h);
    if (nh === h) return;
    set({ notesHistory: nh, notes: nh.present, noteEditing: undefined });
    schedule();
  };

  const saveOnce = async (): Promise<boolean> => {
    const b = get().bundle;
    const doc = get().notes;
    if (!b || !doc) return false;
    if (saved && M.sameContent(saved, doc)) {
      if (get().notesStatus === 'saving') set({ notesStatus: 'saved' });
      return true;
    }
    const mine = epoch;
    set({ notesStatus: 'saving', notesError: undefined });
    try {
      const r = await deps.api.saveNotes({ bundleId: b.id, notes: M.saveBody(doc), baseRevision: revision });
      if (mine !== epoch) return false;
      revision = r.revision;
      saved = doc;
      if (get().notes && !M.sameContent(doc, get().notes!)) return await saveOnce();
      set({ notesStatus: 'saved' });
      return true;
    } catch (e) {
      if (mine !== epoch) return false;
      const msg = errorMessage(e);
      if (M.isStaleError(msg)) {
        get().toast('error', 'These notes were changed in another window. They were reloaded; your last change was not saved.');
        await get().loadNotes();
        return false;
      }
      set({ notesStatus: 'error', notesError: msg });
      get().toast('error', `Could not save the notes: ${msg}`);
      return false;
    }
  };

  return {
    notesStatus: 'idle',

    async loadNotes() {
      const b = get().bundle;
      if (!b) return;
      const mine = ++epoch;
      if (timer) clearTimeout(timer);
      timer = undefined;
      try {
        const doc = await deps.api.getNotes({ bundleId: b.id });
        if (mine !== epoch || get().bundle?.id !== b.id) return;
        revision = doc.revision;
        saved = doc;
        set({ notes: doc, notesHistory: M.historyOf(doc), notesStatus: 'idle', notesError: undefined, noteEditing: undefined });
      } catch (e) {
        if (mine !== epoch) return;
        set({ notesStatus: 'error', notesError: `Could not read the notes: ${errorMessage(e)}` });
      }
    },

    addNote(target, text) {
      if (!text.trim()) return;
      apply((d) => M.addNote(d, target, text.trim(), newNoteId(), now()));
    },
    editNote(id, text) {
      if (!text.trim()) return get().deleteNote(id);
      apply((d) => M.editNote(d, id, text.trim(), now()));
    },
    deleteNote(id) {
      apply((d) => M.deleteNote(d, id));
    },
    setReportTitle(title) {
      apply((d) => M.setTitle(d, title), 'title');
    },
    setReportSummary(summary) {
      apply((d) => M.setSummary(d, summary), 'summary');
    },
    addWalkToReport(flow) {
      apply((d) => M.addTrace(d, flow));
    },
    removeWalkFromReport(flow) {
      apply((d) => M.removeTrace(d, flow));
    },
    undoNotes() {
      move(M.undo);
    },
    redoNotes() {
      move(M.redo);
    },
    setNoteEditing(key) {
      set({ noteEditing: key });
    },

    async flushNotes() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      // One save at a time: a flush during a save runs after it (and saves what changed meanwhile).
      const run: Promise<boolean> = saving ? saving.then(() => saveOnce()) : saveOnce();
      saving = run;
      try {
        return await run;
      } finally {
        if (saving === run) saving = undefined;
      }
    },

    resetNotes() {
      epoch++;
      if (timer) clearTimeout(timer);
      timer = undefined;
      revision = 0;
      saved = undefined;
      set({ notes: undefined, notesHistory: undefined, notesStatus: 'idle', notesError: undefined, noteEditing: undefined });
    },
  };
};
