// Readable reach output, 80 columns: one line per class or cell (verdict, reply, deciding rule), then
// the rules that can never match. A table column too narrow for its value cuts it with "…"; what is
// said after the columns (what decided, a shadowed rule, a change) is wrapped, never cut, so no fact
// is lost (audit of issue #25, A10).
import type { ReachCell } from './matrix.ts';
import type { ReachClass } from './partition.ts';
import type { ReachVerdict } from './outcome.ts';
import type { ShadowReport } from './shadow.ts';
import type { ReachDiff, Side } from './diff.ts';
import { plural } from '../view-models/format.ts';
import { rangeText6 } from './v6/addr6.ts';

export const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];

const WIDTH = 80;
const cut = (s: string, n: number) => (s.length <= n ? s : n <= 1 ? s.slice(0, n) : s.slice(0, n - 1) + '…');
const pad = (s: string, n: number) => cut(s, n).padEnd(n);
// The tables' verdict columns (13 characters: a verdict and its inference mark `*`): the two long verdicts shortened (the JSON keeps the words whole).
const SHORT: Record<string, string> = { 'insufficient information': 'insufficient', 'delivered or forwarded': 'deliv or fwd' };
const short = (v: string) => SHORT[v] ?? v;
/**
 * Pieces joined by spaces and wrapped at 80 columns, the lines after the first indented; a piece is
 * broken only at its own spaces when it does not fit a line by itself (so "which does something else"
 * stays on one line), and a word longer than a line stays whole.
 */
function wrap(text: string | string[], indent = '  '): string[] {
  const all = typeof text === 'string' ? [text] : text;
  // The first line keeps its own indent.
  const lead = /^ */.exec(all[0] ?? '')![0];
  const pieces = (typeof text === 'string' ? text.trimStart().split(' ') : [all[0]!.trimStart(), ...all.slice(1)]).filter((p) => p !== '');
  if (pieces.length) pieces[0] = lead + pieces[0];
  const out: string[] = [];
  let cur = '';
  const put = (w: string) => {
    if (cur.trim() && (indent + w).length > WIDTH) {
      // A word wider than an indented line (a long rule name): on lines of its own, split, never cut.
      out.push(cur);
      for (let k = 0; k < w.length; k += WIDTH - 4) out.push(`    ${w.slice(k, k + WIDTH - 4)}`);
      cur = '';
      return;
    }
    const next = cur ? `${cur} ${w}` : w;
    if (next.length > WIDTH && cur.trim()) {
      out.push(cur);
      cur = indent + w;
    } else cur = cur || !out.length ? next : indent + w;
  };
  for (const p of pieces) {
    if ((indent + p).length > WIDTH) for (const w of p.split(' ')) put(w);
    else put(p);
  }
  if (cur) out.push(cur);
  return out;
}
const range = (a: string, b: string) => (a.includes(':') ? rangeText6(a, b) : a === b ? a : `${a}-${b}`);
/** A value too wide for its column (an IPv6 address or range) on a line of its own above the row, never
 *  cut; on two lines (`head`, then `tail`) when one is too narrow. */
const above = (out: string[], head: string, tail: string, indent: string) => {
  const one = `${indent}${head}${tail}`;
  if (one.length <= WIDTH || !tail) out.push(one);
  else out.push(`${indent}${head}`.trimEnd(), `${indent}  ${tail}`);
};
const ports = (p: [number, number] | null) => (p === null ? '-' : p[0] === 1 && p[1] === 65535 ? 'any' : p[0] === p[1] ? String(p[0]) : `${p[0]}-${p[1]}`);

/** The columns, then what decided: on the same line when it fits, else wrapped on indented lines. */
function line(cols: [string, number][], rest: string): string {
  const head = cols.map(([s, n]) => pad(s, n)).join(' ');
  const one = `${head} ${rest}`.trimEnd();
  if (one.length <= WIDTH) return one;
  return [head.trimEnd(), ...wrap(rest === 'DECIDED BY' ? `    ${rest}` : `    by ${rest}`, '      ')].join('\n');
}

/** An error or warning finding on a class's path (what `reach --from` joins from the findings). */
interface Caveated {
  verdictCaveat?: { severity: 'error' | 'warning'; text: string } | null;
}
const MARK = { error: '!', warning: '~' } as const;
/** A verdict that rests on an inference (outcome.ts `verdictInference`) is marked, never shown as plain fact. */
const INFERRED = '*';
const INFERRED_NOTE = `${INFERRED} the verdict rests on an inference: the step that decided it is not shown by the bundle (trace names the step and why)`;
const verdictText = (v: ReachVerdict, inferred: string | undefined) => `${short(v)}${inferred !== undefined ? INFERRED : ''}`;

export function formatClasses(from: string, classes: (Omit<ReachClass, 'key'> & Caveated)[], notes: string[]): string {
  const out = [`reachability from ${from}: ${plural(classes.length, 'class', 'classes')}`, line([['PROTO', 5], ['DESTINATION', 31], ['PORTS', 11], ['VERDICT', 13], ['REPLY', 12]], 'DECIDED BY')];
  // The findings' texts, numbered once each: a class whose path carries one is marked with its number.
  const caveats: { severity: 'error' | 'warning'; text: string }[] = [];
  for (const c of classes) {
    const by = c.verdicts ? c.verdicts.map((v) => `${v.dip}=${short(v.verdict)}`).join(' ') : (c.decidingRule ?? c.decidedAt);
    let mark = '';
    if (c.verdictCaveat) {
      let k = caveats.findIndex((x) => x.text === c.verdictCaveat!.text);
      if (k < 0) k = caveats.push(c.verdictCaveat) - 1;
      mark = `${MARK[c.verdictCaveat.severity]}${k + 1}`;
    }
    const dst = range(c.dst[0], c.dst[1]);
    const dash = dst.indexOf('-');
    if (dst.length > 31) above(out, dash < 0 ? dst : dst.slice(0, dash + 1), dash < 0 ? '' : dst.slice(dash + 1), `${c.proto.padEnd(5)} `);
    out.push(line([[dst.length > 31 ? '' : c.proto, 5], [dst.length > 31 ? '' : dst, 31], [ports(c.ports), 11], [`${verdictText(c.verdict, c.verdictInferred)}${mark ? ` ${mark}` : ''}`, 13], [c.reply ? short(c.reply.verdict) : '-', 12]], by));
  }
  if (caveats.length) {
    out.push('findings on the paths of the classes marked (! error, ~ warning):');
    caveats.forEach((x, k) => out.push(...wrap(`${MARK[x.severity]}${k + 1} ${x.text}`, '    ')));
  }
  if (classes.some((c) => c.verdictInferred !== undefined)) out.push(...wrap(INFERRED_NOTE, '    '));
  if (!classes.length) out.push('  (no class: nothing to list)');
  for (const n of notes) out.push(...wrap(`note: ${n}`));
  return out.join('\n') + '\n';
}

export function formatCells(cells: ReachCell[], notes: string[]): string {
  const out = [`reachability: ${plural(cells.length, 'cell')}`];
  if (cells.length) out.push(line([['FROM', 15], ['TO', 26], ['VERDICT', 13], ['REPLY', 12]], 'DECIDED BY'));
  for (const c of cells) {
    const to = `${c.port !== undefined ? (c.to.includes(':') ? `[${c.to}]:${c.port}` : `${c.to}:${c.port}`) : c.to}/${c.proto}`;
    const by = c.verdicts ? c.verdicts.map((v) => `${v.dip}=${short(v.verdict)}`).join(' ') : (c.decidingRule ?? c.decidedAt);
    const wide = c.from.length > 15 || to.length > 26;
    if (wide) above(out, `${c.from} → `, to, '');
    out.push(line([[wide ? '' : c.from, 15], [wide ? '' : to, 26], [verdictText(c.verdict, c.verdictInferred), 13], [c.reply ? short(c.reply.verdict) : '-', 12]], by));
  }
  if (cells.some((c) => c.verdictInferred !== undefined)) out.push(...wrap(INFERRED_NOTE, '    '));
  for (const n of notes) out.push(...wrap(`note: ${n}`));
  return out.join('\n') + '\n';
}

export function formatShadow(s: ShadowReport): string {
  const out = [`rules that can never match: ${s.shadowed.length} (of ${plural(s.portsRead, 'port')} read)`];
  for (const r of s.shadowed) {
    const [b] = r.blockedBy;
    out.push(...wrap([r.rule, `(priority ${r.priority ?? '?'},`, `${r.layer})`, `on port ${r.port}`].map((x, k) => (k ? x : `  ${x}`)), '      '));
    if (b) out.push(...wrap(['    blocked by', b.rule, `(priority ${b.priority ?? '?'}),`, b.actionDiffers ? 'which does something else' : 'same action', ...(r.blockedBy.length > 1 ? [`and ${r.blockedBy.length - 1} more`] : [])], '      '));
    if (r.contradiction) out.push(`    !! counted ${plural(r.matchedPackets ?? 0, 'hit')}: the rules as read or the collection are wrong`);
  }
  if (s.portsWithCounters) out.push(`matchable rules with 0 hits: ${s.zeroHits.count} (counters on ${plural(s.portsWithCounters, 'port')})`);
  else out.push('the dump has no rule counters (vfpctrl /get-rule-counter): hits not compared');
  for (const n of s.notAnalysed) out.push(...wrap(`not analysed: ${n}`));
  return out.join('\n') + '\n';
}

/** What one side of a change has that the other does not, beyond verdict and reply: rewrites, next hop, encapsulation, findings. */
export function sideDifferences(x: Side, other: Side): string[] {
  const list = (xs: string[] | undefined) => (xs?.length ? xs.join('; ') : 'none');
  const more: string[] = [];
  if (JSON.stringify(x.rewrites) !== JSON.stringify(other.rewrites)) more.push(`rewrites: ${list(x.rewrites)}`);
  if (x.nextHop !== other.nextHop) more.push(`next hop: ${x.nextHop ?? 'none (it does not leave the node)'}`);
  if (x.encap !== other.encap) more.push(`encapsulated to: ${x.encap ?? 'none'}`);
  if (JSON.stringify(x.findings) !== JSON.stringify(other.findings)) more.push(`findings on the path: ${list(x.findings)}`);
  return more;
}

/** One side of a change: the verdict, what decided, the reply; then what else differs from the other side. */
function sideText(x: Side, other: Side): string[] {
  const out = [`${x.verdict}${x.decidingRule ? ` by ${x.decidingRule}` : ''},`, x.reply ? `reply ${x.reply}` : x.verdict === 'ambiguous' || x.verdict === 'delivered or forwarded' ? 'reply differs by backend' : 'no reply (the request does not get through)'];
  return [...out, ...sideDifferences(x, other)].map((p, k, all) => (k > 0 && k < all.length - 1 ? `${p};` : p));
}

export function formatReachDiff(d: ReachDiff): string {
  const out = [`reachability changes: ${d.changed.length}`];
  // A table header only over rows (audit of issue #25, A9).
  if (d.changed.length) out.push(line([['FROM', 15], ['PROTO', 5], ['DESTINATION', 31], ['PORTS', 11]], ''));
  for (const c of d.changed) {
    const dst = range(c.dst[0], c.dst[1]);
    if (c.from.length > 15 || dst.length > 31) {
      // An IPv6 source or range: written whole above the row (after its `-` onto a second line when it
      // would pass 80 columns), never cut.
      const dash = dst.indexOf('-');
      let cur = `${c.from} ${c.proto} `;
      for (const p of dash < 0 ? [dst] : [dst.slice(0, dash + 1), dst.slice(dash + 1)]) {
        if ((cur + p).length > WIDTH && cur.trim()) {
          out.push(cur.trimEnd());
          cur = '    ';
        }
        cur += p;
      }
      out.push(cur, line([['', 15], ['', 5], ['', 31], [ports(c.ports), 11]], ''));
    } else out.push(line([[c.from, 15], [c.proto, 5], [dst, 31], [ports(c.ports), 11]], ''));
    out.push(...wrap(['    before:', ...sideText(c.before, c.after)], '            '), ...wrap(['    after: ', ...sideText(c.after, c.before)], '            '));
  }
  // With its address: the host (and a dual-stack pod) is a source in each family.
  const who = (s: { name?: string; ip: string }) => (s.name ? `${s.name} (${s.ip})` : s.ip);
  for (const s of d.onlyBefore) out.push(...wrap(`only in the first bundle: ${who(s)}`));
  for (const s of d.onlyAfter) out.push(...wrap(`only in the second bundle: ${who(s)}`));
  if (d.budgetHit) out.push('note: a budget was hit: some cells were not walked');
  return out.join('\n') + '\n';
}
