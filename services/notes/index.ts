export { NotesStore, StaleNotesError, parseNotes, writeAtomic, BESIDE_SUFFIX, type NotesBundle } from './store.ts';
export { bundleHash } from './hash.ts';
