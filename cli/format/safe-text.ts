// Text from a bundle, a zip's entry names or a remote node reaches the terminal only through here: its
// control characters — escape sequences that retitle the window (ESC ] 0 ; … BEL), clear a line
// (ESC [ 2 K) or move the cursor, a carriage return that overwrites what was printed, C1 controls,
// bidirectional overrides that reorder it on screen — are shown as escapes (\x1B, \u202E) instead of
// acted on. Newlines and tabs, hnsight's own layout, stay.

/** C0 but tab and newline, DEL, C1, and the invisible marks that change the order text is shown in. */
// eslint-disable-next-line no-control-regex -- control characters are what this module finds
const UNSAFE_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of those (it escapes C0 itself), plus the two JavaScript line breaks. */
const UNSAFE_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** `s` with every control character spelled out. */
export function safeText(s: string): string {
  return s.replace(UNSAFE_TEXT, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${hex(n, 2)}` : `\\u${hex(n, 4)}`;
  });
}

/** JSON for the terminal: the same value (escapes inside strings only), nothing a terminal acts on. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNSAFE_JSON, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}
