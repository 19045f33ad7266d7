// Whether a port's copy of a load-balancing rule lists the DIPs of the copy already known under its
// name. The name (LB_DSR_<hash>_<src>_<VIP>_<port>_<target>_<proto>) spells the VIP, port and protocol
// but not the DIPs, and HNS may leave one port with old ones (partial programming). What is compared:
// the block's bytes from its first line naming DIPs (`Count of DIP Ranges`, `DIP Range(s)`) to its
// counter lines, at the same distance from the block's start. Counters are not compared: vfpctrl
// prints each port's hit counts inside the block (`Matched packets : 12`; the per-port
// `vfpctrl /port <port> /get-rule-counter` of microsoft/SDN Kubernetes/windows/debug/dumpVfpPolicies.ps1
// and collectlogs.ps1), so copies of one rule differ there, often in length. A line added, dropped or
// longer anywhere above the counters moves the compared bytes or where the counters start: such a copy is not taken as the known
// one (it is then parsed on its own: never a wrong rule, at worst one parsed more). Not compared: a
// change of the same length above the DIP lines (a priority 100 → 200), which no check reads from a
// load-balancing rule beyond what its name spells.
import { COLON, CR, NINE, NL, readCounterTail, SP, TAB, ZERO } from '../../parsers/vfp/counter-tail.ts';

const isDigit = (c: number | undefined) => c !== undefined && c >= ZERO && c <= NINE;

interface Known {
  /** Where the compared part of the block starts: the line that introduces its DIPs (0 when it has none). */
  from: number;
  /** The block from `from` up to its counter lines, as 32-bit little-endian words, and its last 0–3 bytes. */
  words: Int32Array;
  rest: Uint8Array;
  /** Bytes from the block's start to its counter lines. */
  head: number;
  /** The first counter line up to its colon (firstKey). */
  key: Uint8Array | undefined;
}

/**
 * Whether the copy's counter lines start at p as the known copy's do: its first non-blank line from p is
 * the known copy's first counter line (bytes up to the colon equal, then a decimal value). A copy listing
 * one more DIP after the same ones has that DIP there instead. Only the first line is compared: the whole
 * tail cost the checks ≈ 1 s more on a big node (2 million copies compared), and vfpctrl prints nothing
 * but counters after the first one; a crafted copy with other lines among its counters would be taken as
 * the known copy (its DIPs then read from the known one: a stale-DIP finding missed, never a crash).
 */
function tailStartsAt(key: Uint8Array | undefined, u8: Uint8Array, p: number, e: number): boolean {
  while (p < e && (u8[p] === SP || u8[p] === TAB || u8[p] === CR || u8[p] === NL)) p++;
  if (!key) return p === e;
  // Back to the line's start: the key's bytes include its indentation.
  let ls = p;
  while (ls > 0 && u8[ls - 1] !== NL) ls--;
  if (ls + key.length > e) return false;
  for (let i = 0; i < key.length; i++) if (u8[ls + i] !== key[i]) return false;
  p = ls + key.length;
  while (p < e && (u8[p] === SP || u8[p] === TAB)) p++;
  return p < e && isDigit(u8[p]);
}

/** The known tail's first counter line, its bytes up to and including its colon (none: no counters). */
function firstKey(u8: Uint8Array, t: number, e: number): Uint8Array | undefined {
  for (let ls = t; ls < e; ) {
    let le = ls;
    while (le < e && u8[le] !== NL) le++;
    for (let i = ls; i < le; i++) if (u8[i] === COLON) return u8.slice(ls, i + 1);
    ls = le + 1;
  }
  return undefined;
}

const DIP = [68, 73, 80]; // "DIP"

/** The start of the first line of [s, t) that names DIPs, or s (the whole block is compared). */
function dipLine(u8: Uint8Array, s: number, t: number): number {
  for (let i = s; i + 2 < t; i++) {
    if (u8[i] !== DIP[0] || u8[i + 1] !== DIP[1] || u8[i + 2] !== DIP[2]) continue;
    while (i > s && u8[i - 1] !== NL) i--;
    return i;
  }
  return s;
}

/** The known copies of rules, by id. */
export class RuleContents {
  private readonly known: (Known | undefined)[] = [];

  /** Keeps block [s, e) of `u8` as the content of rule `id`. */
  add(id: number, u8: Uint8Array, s: number, e: number): void {
    const t = readCounterTail(u8, s, e);
    const head = t - s;
    const from = dipLine(u8, s, t) - s;
    const n = (head - from) >> 2;
    const words = new Int32Array(n);
    const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    for (let w = 0; w < n; w++) words[w] = dv.getInt32(s + from + 4 * w, true);
    this.known[id] = { from, words, rest: u8.slice(s + from + 4 * n, t), head, key: firstKey(u8, t, e) };
  }

  /** Whether block [s, e) of `u8` (`dv` over the same bytes) lists what the known copy of rule `id` lists (see above). */
  same(id: number, u8: Uint8Array, dv: DataView, s: number, e: number): boolean {
    const k = this.known[id];
    if (!k || e - s < k.head) return false;
    const { words, rest } = k;
    const at = s + k.from;
    // Four bytes at a time: a quarter of the steps of a byte loop, which is what this costs.
    const n = words.length;
    for (let w = 0; w < n; w++) if (dv.getInt32(at + 4 * w, true) !== words[w]) return false;
    const p = at + 4 * n;
    for (let i = 0; i < rest.length; i++) if (u8[p + i] !== rest[i]) return false;
    // What follows must be the counter lines (their values differ from port to port): a copy that
    // lists one more DIP after the same ones starts with the compared bytes too, and only where its
    // counters start tells it apart (found by an independent review).
    return tailStartsAt(k.key, u8, s + k.head, e);
  }
}
