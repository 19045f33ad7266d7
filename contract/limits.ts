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
  if (bytes > PASTE_MAX_BYTES) {
    return `The text is ${mib(bytes)}; a paste holds at most ${mib(PASTE_MAX_BYTES)}. Save it as a file and open the file instead.`;
  }
  return undefined;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}
