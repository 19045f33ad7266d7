// The notes' pure helpers: the refs a note is on (README "Notes file"), edits that return a new Notes
// document, and the undo/redo history over those documents. No DOM, no store: unit-tested.
import type { Note, Notes, NoteTarget } from '../../../analysis/report/notes.ts';
import type { Flow } from '../../../analysis/walk/types.ts';
import type { ObjectRef } from '../../../analysis/view-models/types.ts';

export type { Note, Notes, NoteTarget };

/** `trace:<src>-<dst>[:port]/<proto>` — the same as analysis/report/notes.ts traceRef. */
export function walkRef(f: Pick<Flow, 'srcIp' | 'dstIp' | 'dstPort' | 'proto'>): string {
  return `trace:${f.srcIp}-${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}/${f.proto}`;
}

export function hopTarget(f: Pick<Flow, 'srcIp' | 'dstIp' | 'dstPort' | 'proto'>, hop: number): NoteTarget {
  return { kind: 'hop', ref: `${walkRef(f)}#${hop}` };
}

export function findingTarget(key: string): NoteTarget {
  return { kind: 'finding', ref: `finding:${key}` };
}

export function objectTarget(ref: Pick<ObjectRef, 'type' | 'id'>): NoteTarget {
  return { kind: 'object', ref: `object:${ref.type}:${ref.id}` };
}

export const REPORT_TARGET: NoteTarget = { kind: 'report', ref: 'report' };

export function sameTarget(a: NoteTarget, b: NoteTarget): boolean {
  return a.kind === b.kind && a.ref === b.ref;
}

export function notesOn(doc: Notes | undefined, t: NoteTarget): Note[] {
  return doc ? doc.notes.filter((n) => sameTarget(n.target, t)) : [];
}

/** How many notes each ref carries (badges). */
export function noteCounts(doc: Notes | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const n of doc?.notes ?? []) m.set(n.target.ref, (m.get(n.target.ref) ?? 0) + 1);
  return m;
}

/** Notes on the hops of one walk: hop index → count. */
export function hopNoteCounts(doc: Notes | undefined, f: Pick<Flow, 'srcIp' | 'dstIp' | 'dstPort' | 'proto'>): Map<number, number> {
  const prefix = `${walkRef(f)}#`;
  const m = new Map<number, number>();
  for (const n of doc?.notes ?? []) {
    if (n.target.kind !== 'hop' || !n.target.ref.startsWith(prefix)) continue;
    const i = Number(n.target.ref.slice(prefix.length));
    if (Number.isInteger(i)) m.set(i, (m.get(i) ?? 0) + 1);
  }
  return m;
}

export function sameFlow(a: Flow, b: Flow): boolean {
  return a.srcIp === b.srcIp && a.dstIp === b.dstIp && a.dstPort === b.dstPort && a.srcPort === b.srcPort && a.proto === b.proto && a.dip === b.dip;
}

/** Only the contract's fields, no undefined values (saveNotes validates strictly). */
export function cleanFlow(f: Flow): Flow {
  return {
    srcIp: f.srcIp,
    dstIp: f.dstIp,
    proto: f.proto,
    ...(f.dstPort !== undefined ? { dstPort: f.dstPort } : {}),
    ...(f.srcPort !== undefined ? { srcPort: f.srcPort } : {}),
    ...(f.dip !== undefined ? { dip: f.dip } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Edits: each returns a new document (the old one stays as it was, for the history).

export const LIMITS = { title: 300, text: 20_000, notes: 2000, traces: 50 } as const;

export function addNote(doc: Notes, target: NoteTarget, text: string, id: string, now: string): Notes {
  if (doc.notes.length >= LIMITS.notes) return doc;
  const note: Note = { id, target: { ...target }, text: text.slice(0, LIMITS.text), createdAt: now, updatedAt: now };
  return { ...doc, notes: [...doc.notes, note] };
}

export function editNote(doc: Notes, id: string, text: string, now: string): Notes {
  const t = text.slice(0, LIMITS.text);
  if (!doc.notes.some((n) => n.id === id && n.text !== t)) return doc;
  return { ...doc, notes: doc.notes.map((n) => (n.id === id ? { ...n, text: t, updatedAt: now } : n)) };
}

export function deleteNote(doc: Notes, id: string): Notes {
  if (!doc.notes.some((n) => n.id === id)) return doc;
  return { ...doc, notes: doc.notes.filter((n) => n.id !== id) };
}

export function setTitle(doc: Notes, title: string): Notes {
  const t = title.slice(0, LIMITS.title);
  return t === doc.title ? doc : { ...doc, title: t };
}

export function setSummary(doc: Notes, summary: string): Notes {
  const s = summary.slice(0, LIMITS.text);
  return s === doc.summary ? doc : { ...doc, summary: s };
}

export function addTrace(doc: Notes, flow: Flow): Notes {
  const f = cleanFlow(flow);
  if (doc.traces.some((t) => sameFlow(t, f)) || doc.traces.length >= LIMITS.traces) return doc;
  return { ...doc, traces: [...doc.traces, f] };
}

export function removeTrace(doc: Notes, flow: Flow): Notes {
  const f = cleanFlow(flow);
  if (!doc.traces.some((t) => sameFlow(t, f))) return doc;
  return { ...doc, traces: doc.traces.filter((t) => !sameFlow(t, f)) };
}

// ---------------------------------------------------------------------------------------------
// History: the documents before (past) and after (future) the present one. An edit pushes the
// present onto past and clears future; consecutive edits with the same coalesce key (typing into the
// title) make one step.

export interface History {
  past: Notes[];
  present: Notes;
  future: Notes[];
  /** The key of the last edit, when it may be merged with the next one. */
  lastKey?: string;
}

export const HISTORY_LIMIT = 100;

export function historyOf(present: Notes): History {
  return { past: [], present, future: [] };
}

export function record(h: History, next: Notes, coalesceKey?: string): History {
  if (next === h.present) return h;
  if (coalesceKey && h.lastKey === coalesceKey && h.past.length) return { past: h.past, present: next, future: [], lastKey: coalesceKey };
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [], lastKey: coalesceKey };
}

export function undo(h: History): History {
  if (!h.past.length) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  if (!h.future.length) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}

/** What saveNotes takes: the editable fields (the backend owns schema, bundle and revision). */
export function saveBody(doc: Notes): Pick<Notes, 'title' | 'summary' | 'notes' | 'traces'> {
  return { title: doc.title, summary: doc.summary, notes: doc.notes, traces: doc.traces.map(cleanFlow) };
}

/** Same content (ignoring revision) — nothing to save. */
export function sameContent(a: Notes, b: Notes): boolean {
  return JSON.stringify(saveBody(a)) === JSON.stringify(saveBody(b));
}

/** saveNotes refused the save: another window saved first (the message starts 'stale:', maybe wrapped). */
export function isStaleError(message: string): boolean {
  return /(^|[\s:])stale:/i.test(message);
}
