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
