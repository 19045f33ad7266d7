// What fits in a node's foot row: its flags (worst first), the control that opens what is folded
// inside, the kind in words. Widths are over-estimated from the text (a bold 10 px badge is never
// wider than CHAR_PX per character plus its padding), and items that do not fit are left out — the
// kind first (the icon and colour say it too), then flags beyond the first, which become "+N" — so a
// badge never runs into a label ("danglingMOTE ENDPOINT" was two items drawn over each other).
// graph.css keeps every item at its width (flex: none). Pure.

export type FlagSeverity = 'error' | 'warning' | 'info';

export interface BadgeInput {
  flags: readonly { flag: string; severity: FlagSeverity }[];
  /** The kind in words (drawn uppercase). */
  kind?: string;
  /** The text of the control opening what is folded inside (always drawn). */
  expander?: string;
}

export interface BadgeLayout {
  flags: { flag: string; severity: FlagSeverity }[];
  /** Flags left out, shown as "+N" (their names are in the node's tooltip). */
  more: number;
  kind?: string;
  expander?: string;
}

/** Upper bounds of the rendered widths (graph.css .tnode-foot). */
const CHAR_PX = { badge: 6.4, kind: 6.9, expander: 6.6 } as const;
const BADGE_PAD = 14;
const EXPANDER_PAD = 26;
export const FOOT_GAP = 4;

export const badgeWidth = (text: string) => Math.ceil(text.length * CHAR_PX.badge + BADGE_PAD);
export const kindWidth = (text: string) => Math.ceil(text.length * CHAR_PX.kind);
export const expanderWidth = (text: string) => Math.ceil(text.length * CHAR_PX.expander + EXPANDER_PAD);

const RANK: Record<FlagSeverity, number> = { error: 0, warning: 1, info: 2 };

export function layoutBadges(input: BadgeInput, available: number): BadgeLayout {
  let room = available;
  const out: BadgeLayout = { flags: [], more: 0 };
  if (input.expander) {
    out.expander = input.expander;
    room -= expanderWidth(input.expander) + FOOT_GAP;
  }
  const flags = [...input.flags].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
  for (let i = 0; i < flags.length; i++) {
    const w = badgeWidth(flags[i].flag) + FOOT_GAP;
    const left = flags.length - i - 1;
    // Keep room for "+N" while flags remain after this one.
    const reserve = left ? badgeWidth(`+${left}`) + FOOT_GAP : 0;
    if (w + reserve > room) {
      out.more = flags.length - i;
      // Give back shown flags until "+N" fits (only on absurdly narrow nodes).
      while (out.flags.length && badgeWidth(`+${out.more}`) + FOOT_GAP > room) {
        room += badgeWidth(out.flags.pop()!.flag) + FOOT_GAP;
        out.more++;
      }
      if (badgeWidth(`+${out.more}`) + FOOT_GAP > room) out.more = 0;
      else room -= badgeWidth(`+${out.more}`) + FOOT_GAP;
      break;
    }
    out.flags.push(flags[i]);
    room -= w;
  }
  if (input.kind && !out.more && kindWidth(input.kind) <= room) out.kind = input.kind;
  return out;
}

/** The estimated width of a layout's items with their gaps (never more than the space it was given). */
export function layoutWidth(l: BadgeLayout): number {
  const parts = [
    ...l.flags.map((f) => badgeWidth(f.flag)),
    ...(l.more ? [badgeWidth(`+${l.more}`)] : []),
    ...(l.kind ? [kindWidth(l.kind)] : []),
    ...(l.expander ? [expanderWidth(l.expander)] : []),
  ];
  return parts.reduce((a, b) => a + b, 0) + Math.max(0, parts.length - 1) * FOOT_GAP;
}
