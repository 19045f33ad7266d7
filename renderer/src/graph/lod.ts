// How much of each node the graph draws at a zoom (level of detail). Text is drawn at a fixed size in
// graph units, so zooming out shrinks it: below DETAIL_ZOOM a node's detail lines would be smaller
// than 9 screen pixels and only its label is drawn, enlarged so it stays at least LABEL_PX on screen;
// below MIN_READABLE_ZOOM even that no longer fits in a node and the graph draws its summary layer
// instead (counts per column, the nodes as plain boxes: summary.ts). Pure.

export type Lod = 'detail' | 'compact' | 'summary';

/** At and above this zoom every line of a node is drawn (11.5 px details read at ≥ 9 px). */
export const DETAIL_ZOOM = 0.78;
/** Below this zoom a node is too small on screen for its label (a 15-character address no longer
 *  fits a line of the box at 9 px): the summary layer is drawn. */
export const MIN_READABLE_ZOOM = 0.4;
/** The smallest a label is drawn on screen, in pixels. */
export const LABEL_PX = 10.5;
/** The label's size in graph units at zoom 1 (graph.css .tnode-label). */
const LABEL_BASE = 13;
/** The smallest the compact level's detail line is drawn on screen, and its size at zoom 1 (.tnode-details). */
export const DETAIL_PX = 9.5;
const DETAIL_BASE = 11.5;

export function lodFor(zoom: number): Lod {
  return zoom >= DETAIL_ZOOM ? 'detail' : zoom >= MIN_READABLE_ZOOM ? 'compact' : 'summary';
}

/**
 * How much the label is enlarged at this zoom so it reads at LABEL_PX on screen, in steps of 5 % (a
 * change re-lays the text of every drawn node, so it should not happen on every frame of a zoom).
 */
export function labelScale(zoom: number): number {
  const s = Math.max(1, LABEL_PX / (LABEL_BASE * Math.max(zoom, 0.01)));
  return Math.round(s * 20) / 20;
}

/** How much the first detail line is enlarged at the compact level so it reads at DETAIL_PX on screen. */
export function detailScale(zoom: number): number {
  const s = Math.max(1, DETAIL_PX / (DETAIL_BASE * Math.max(zoom, 0.01)));
  return Math.round(s * 20) / 20;
}

/** Characters of a label line that fit the width of a node at zoom 1 at LABEL_PX (bold UI font,
 *  0.7 em a character: a bold digit, the widest an address has); graph.css shrinks a longer line to
 *  fit (--chars, --zoom). */
export const LINE_CHARS_AT_1 = 25;

/**
 * The pieces of a label that must each stay on one line, and what may separate them on a break: a
 * space ("vEthernet (Ethernet)") or nothing, after the ':' before a port ("10.104.237.115:" and
 * "80/TCP"). An address is never split: not at its dots, nor at an IPv6 address' own colons
 * ("[fd00::10]:53/UDP" breaks only before "53/UDP").
 */
export function labelPieces(label: string): { text: string; space: boolean }[] {
  const out: { text: string; space: boolean }[] = [];
  for (const [w, word] of label.trim().split(/\s+/).entries()) {
    let depth = 0;
    let start = 0;
    for (let i = 0; i < word.length; i++) {
      const ch = word[i];
      if (ch === '[') depth++;
      else if (ch === ']') depth = Math.max(0, depth - 1);
      else if (ch === ':' && depth === 0 && /^\d+\//.test(word.slice(i + 1))) {
        out.push({ text: word.slice(start, i + 1), space: start === 0 && w > 0 });
        start = i + 1;
      }
    }
    if (start < word.length) out.push({ text: word.slice(start), space: start === 0 && w > 0 });
  }
  return out;
}

/** The longest piece of a label that must stay on one line (labelPieces). */
export function labelChars(label: string): number {
  return Math.max(1, ...labelPieces(label).map((p) => p.text.length));
}

/** How much screen-sized marks (hop numbers, fault markers) are enlarged in graph units at this zoom, stepped like labelScale. */
export function markScale(zoom: number): number {
  const s = Math.max(1, 0.9 / Math.max(zoom, 0.01));
  return Math.round(s * 10) / 10;
}
