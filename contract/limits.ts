// Limits of what the API takes, in a module without zod: the schemas enforce them, the renderer
// checks them before sending (a refusal it can word for the user, without sending 64 MiB first).

/** The largest text one paste may hold, in UTF-8 bytes. Bigger outputs are files: open the file instead. */
export const PASTE_MAX_BYTES = 64 * 1024 * 1024;
/** The most pastes one node is built from. */
export const PASTES_MAX = 50;
/** The most pasted text one node holds, all its pastes together (UTF-8 bytes). */
export const PASTES_MAX_TOTAL_BYTES = 256 * 1024 * 1024;

/** Why a text cannot be pasted, in words for the user; undefined when it can. */
export function pasteRefusal(bytes: number): string | undefined {
  if (bytes > PASTE_MAX_BYTES) return `The text is ${mib(bytes)}, more than the ${mib(PASTE_MAX_BYTES)} a paste holds. Save it as a file and open the file instead.`;
  return undefined;
}

/** Bytes in MiB for a message: whole when exact, else one decimal rounded up (just over a limit never reads as the limit). */
export function mib(bytes: number): string {
  const m = bytes / 1024 / 1024;
  return Number.isInteger(m) ? `${m} MiB` : `${(Math.ceil(m * 10) / 10).toFixed(1)} MiB`;
}

/**
 * The notes file's limits (README "Notes file"; the schemas enforce them): characters of the title,
 * the summary and each note, notes per file, walks per file.
 */
export const NOTES_LIMITS = { titleChars: 300, summaryChars: 20_000, noteChars: 20_000, notes: 2000, traces: 50, noteIdChars: 128, refChars: 600, timeChars: 40 } as const;

/**
 * The most bytes a saveNotes request of notes within those limits can take as JSON: every character
 * (UTF-16 unit) counted at its worst, a `\u00XX` escape (6 bytes), plus room for the keys, the walks
 * and the bundle. Browser mode accepts a saveNotes body this large, so every notes file the format
 * allows can be saved (a fixed 1 MiB refused one of a few hundred long notes).
 */
export function notesRequestMaxBytes(): number {
  const L = NOTES_LIMITS;
  const perNote = 6 * (L.noteIdChars + L.refChars + L.noteChars + 2 * L.timeChars) + 200;
  const walks = L.traces * 6 * 400;
  return L.notes * perNote + 6 * (L.titleChars + L.summaryChars) + walks + 64 * 1024;
}
