// Readable reach output, 80 columns: one line per class or cell (verdict, deciding rule), then the
// rules that can never match. Long names are cut with "…" so the table keeps its columns.
import type { ReachCell } from './matrix.ts';
import type { ReachClass } from './partition.ts';
import type { ReachVerdict } from './outcome.ts';
import type { ShadowReport } from './shadow.ts';
import type { ReachDiff } from './diff.ts';
import { plural } from '../view-models/format.ts';

export const VERDICTS: ReachVerdict[] = ['delivered', 'forwarded', 'delivered or forwarded', 'dropped', 'unknown', 'ambiguous', 'insufficient information'];

const WIDTH = 80;
const cut = (s: string, n: number) => (s.length <= n ? s : n <= 1 ? s.slice(0, n) : s.slice(0, n - 1) + '…');
const pad = (s: string, n: number) => cut(s, n).padEnd(n);
// The table's 12-character column: the two long verdicts shortened (the JSON keeps the words whole).
const SHORT: Record<string, string> = { 'insufficient information': 'insufficient', 'delivered or forwarded': 'deliv or fwd' };
const short = (v: string) => SHORT[v] ?? v;
/** Words wrapped at 80 columns, the lines after the first indented. */
function wrap(text: string, indent = '  '): string[] {
  const out: string[] = [];
  let cur = '';
  for (const w of text.split(' ')) {
    const next = cur ? `${cur} ${w}` : w;
    if (next.length > WIDTH && cur) {
      out.push(cur);
      cur = indent + w;
    } else cur = next;
  }
  if (cur) out.push(cut(cur, WIDTH));
  return out;
}
const range = (a: string, b: string) => (a === b ? a : `${a}-${b}`);
const ports = (p: [number, number] | null) => (p === null ? '-' : p[0] === 1 && p[1] === 65535 ? 'any' : p[0] === p[1] ? String(p[0]) : `${p[0]}-${p[1]}`);

/** The columns, then what decided: on the same line when it fits, else on its own indented line. */
function line(cols: [string, number][], rest: string): string {
  const head = cols.map(([s, n]) => pad(s, n)).join(' ');
  const one = `${head} ${rest}`.trimEnd();
  return one.length <= WIDTH ? one : `${head.trimEnd()}\n${cut(`    by ${rest}`, WIDTH)}`;
}

export function formatClasses(from: string, classes: Omit<ReachClass, 'key'>[], notes: string[]): string {
  const out = [`reachability from ${from}: ${plural(classes.length, 'class', 'classes')}`, line([['PROTO', 5], ['DESTINATION', 31], ['PORTS', 11], ['VERDICT', 12]], 'DECIDED BY')];
  for (const c of classes) {
    const by = c.verdicts ? c.verdicts.map((v) => `${v.dip}=${short(v.verdict)}`).join(' ') : (c.decidingRule ?? c.decidedAt);
    out.push(line([[c.proto, 5], [range(c.dst[0], c.dst[1]), 31], [ports(c.ports), 11], [short(c.verdict), 12]], by));
  }
  for (const n of notes) out.push(...wrap(`note: ${n}`));
  return out.join('\n') + '\n';
}

export function formatCells(cells: ReachCell[], notes: string[]): string {
  const out = [`reachability: ${plural(cells.length, 'cell')}`, line([['FROM', 15], ['TO', 27], ['VERDICT', 12], ['REPLY', 12]], 'DECIDED BY')];
  for (const c of cells) {
    const to = `${c.port !== undefined ? `${c.to}:${c.port}` : c.to}/${c.proto}`;
    const by = c.verdicts ? c.verdicts.map((v) => `${v.dip}=${short(v.verdict)}`).join(' ') : (c.decidingRule ?? c.decidedAt);
    out.push(line([[c.from, 15], [to, 27], [short(c.verdict), 12], [c.reply ? short(c.reply.verdict) : '-', 12]], by));
  }
  for (const n of notes) out.push(...wrap(`note: ${n}`));
  return out.join('\n') + '\n';
}

export function formatShadow(s: ShadowReport): string {
  const out = [`rules that can never match: ${s.shadowed.length} (of ${plural(s.portsRead, 'port')} read)`];
  for (const r of s.shadowed) {
    const [b] = r.blockedBy;
    out.push(cut(`  ${r.rule} (priority ${r.priority ?? '?'}, ${r.layer}) on port ${cut(r.port, 13)}`, WIDTH));
    if (b) out.push(cut(`    blocked by ${b.rule} (priority ${b.priority ?? '?'})${b.actionDiffers ? ', which does something else' : ', same action'}${r.blockedBy.length > 1 ? ` and ${r.blockedBy.length - 1} more` : ''}`, WIDTH));
    if (r.contradiction) out.push(`    !! counted ${plural(r.matchedPackets ?? 0, 'hit')}: the rules as read or the collection are wrong`);
  }
  if (s.portsWithCounters) out.push(`matchable rules with 0 hits: ${s.zeroHits.count} (counters on ${plural(s.portsWithCounters, 'port')})`);
  else out.push('the dump has no rule counters (vfpctrl /get-rule-counter): hits not compared');
  for (const n of s.notAnalysed) out.push(...wrap(`not analysed: ${n}`));
  return out.join('\n') + '\n';
}

export function formatReachDiff(d: ReachDiff): string {
  const out = [`reachability changes: ${d.changed.length}`, line([['FROM', 15], ['PROTO', 5], ['DESTINATION', 31], ['PORTS', 11]], '')];
  const what = (x: ReachDiff['changed'][number]['before']) => `${short(x.verdict)}${x.decidingRule ? ` by ${x.decidingRule}` : ''}${x.reply ? `, reply ${short(x.reply)}` : ''}`;
  for (const c of d.changed) {
    out.push(line([[c.from, 15], [c.proto, 5], [range(c.dst[0], c.dst[1]), 31], [ports(c.ports), 11]], ''));
    out.push(cut(`    before: ${what(c.before)}`, WIDTH), cut(`    after:  ${what(c.after)}`, WIDTH));
  }
  for (const s of d.onlyBefore) out.push(`only in the first bundle: ${s.name ?? s.ip}`);
  for (const s of d.onlyAfter) out.push(`only in the second bundle: ${s.name ?? s.ip}`);
  if (d.budgetHit) out.push('note: a budget was hit: some cells were not walked');
  return out.join('\n') + '\n';
}
