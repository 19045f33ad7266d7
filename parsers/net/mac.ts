// One reader of hardware (MAC) addresses for every file format: `00-15-5D-E1-56-F4` out, whatever the
// spelling in. Pure; total (undefined when the text is not a MAC).
//
// Spellings read by default, each seen in a source:
// - pairs joined by `-` (HNS JSON, ipconfig /all, vfpctrl), `:` (Linux, CNI logs), a blank (route
//   print's interface list: `00 15 5d e1 56 f4 ......Hyper-V…`) or `.`; a mix of them;
// - twelve hex digits with no separator (vfpctrl JSON, some CNI configs).
// Asked for by the caller:
// - `long`: 7 or 8 pairs (route print lists tunnel adapters' 8-byte EUI-64 hardware addresses);
// - `anySeparators`: separators anywhere, as long as twelve hex digits remain (`0015.5dAA.BF3D`, the
//   dotted form of switch vendors; HNS objects written by hand).
export interface MacSpellings {
  long?: boolean;
  anySeparators?: boolean;
}

const PAIRS6 = /^[0-9a-f]{2}(?:[-:. ][0-9a-f]{2}){5}$/i;
const PAIRS8 = /^[0-9a-f]{2}(?:[-:. ][0-9a-f]{2}){5,7}$/i;
const BARE = /^[0-9a-f]{12}$/i;

/** The MAC `s` spells (blanks around it ignored), upper-case pairs joined by `-`; undefined when not one. */
export function normalizeMac(s: string, accept: MacSpellings = {}): string | undefined {
  const t = s.trim();
  let hex: string | undefined;
  if ((accept.long ? PAIRS8 : PAIRS6).test(t)) hex = t.replace(/[-:. ]/g, '');
  else if (BARE.test(t)) hex = t;
  else if (accept.anySeparators && t.length <= 64) {
    const stripped = t.replace(/[-:.]/g, '');
    if (BARE.test(stripped)) hex = stripped;
  }
  return hex === undefined ? undefined : hex.toUpperCase().match(/../g)!.join('-');
}
