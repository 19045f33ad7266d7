export { NotesStore, StaleNotesError, parseNotes, BESIDE_SUFFIX, type NotesBundle } from './store.ts';
export { bundleHash, sourceHash } from './hash.ts';
