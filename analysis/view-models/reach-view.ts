// The Reachability view's model: sources (rows) and destinations (columns) grouped (pods by
// namespace, the host; Services by namespace, remote pod subnets, the node and the outside), groups
// that collapse into one line summing up their cells, the filters (what is dropped, what is not
// symmetric, what a finding touches), each cell's tone, glyph and words, and the packet a cell's walk
// opens. Pure: the renderer draws what this returns, the unit tests check it without a DOM.
import type { ReachVerdict } from '../reach/index.ts';
import type { Flow } from '../walk/types.ts';
import type { ReachCellView, ReachEnd, ReachMatrixView } from './reach-data.ts';

export type ReachFilter = { kind: 'all' } | { kind: 'dropped' } | { kind: 'asymmetric' } | { kind: 'finding'; key: string };

/** One line of the grid (a row, or a column): a group's header, or one source / destination. */
export type ReachLine = { type: 'group'; id: string; label: string; members: number[]; collapsed: boolean } | { type: 'end'; index: number; group: string; label: string };

export type ReachTone = 'delivered' | 'forwarded' | 'split' | 'flagged' | 'dropped' | 'unknown' | 'ambiguous' | 'insufficient' | 'none';

export interface ReachGridCell {
  tone: ReachTone;
  glyph: string;
  /** Does the cell (or, for a group line, one of its cells) match the filter. */
  match: boolean;
  /** Words for the tooltip and the aria-label. */
  label: string;
  /** The real cell (a source × a destination), absent on group lines and cells not worked out. */
  cell?: ReachCellView;
  /** Cells under it not worked out (yet): never shown as a verdict; Enter works them out. */
  missing: number;
  /**
   * The verdict rests on an inference (a step the bundle does not show): the cell shows INFERRED_MARK
   * beside its glyph. A group line: a cell under it that shows the group's outcome does.
   */
  inferred: boolean;
}

export interface ReachGrid {
  rows: ReachLine[];
  cols: ReachLine[];
  /** The cell at a row and a column (indexes into rows and cols). */
  at(row: number, col: number): ReachGridCell;
  /** Counts of worked-out cells by tone, after the filter. */
  counts: Record<ReachTone, number>;
  /** The sources and destinations under a row × a column (a group's members, or one of each). */
  block(row: number, col: number): { sources: number[]; destinations: number[] };
}

/** The walk's verdict colours, and two of their own for what the bundle cannot decide. */
export const TONE_OF: Record<ReachVerdict, ReachTone> = {
  delivered: 'delivered',
  forwarded: 'forwarded',
  'delivered or forwarded': 'split',
  dropped: 'dropped',
  unknown: 'unknown',
  ambiguous: 'ambiguous',
  'insufficient information': 'insufficient',
};

/** A glyph beside each colour, so no outcome is told by colour alone. */
export const GLYPH: Record<ReachTone, string> = { delivered: '✓', forwarded: '→', split: '⇉', flagged: '!', dropped: '✗', unknown: '?', ambiguous: '≈', insufficient: '…', none: '' };

/**
 * Beside a cell's glyph when its verdict rests on an inference (issue #25): the title said "(inferred)",
 * which nobody scanning the grid reads. The CLI tables' mark, so the two read alike; a glyph, not a colour.
 */
export const INFERRED_MARK = '*';

/** Marks a cell carries besides its tone's glyph, for the legend. */
export const LEGEND_MARKS: { mark: string; label: string }[] = [{ mark: INFERRED_MARK, label: 'The verdict rests on an inference: the bundle does not show the step that decided it (the cell\'s title says which)' }];

export const LEGEND: { tone: ReachTone; label: string }[] = [
  { tone: 'delivered', label: 'Delivered' },
  { tone: 'forwarded', label: 'Forwarded (leaves the node)' },
  { tone: 'split', label: 'Delivered or forwarded (a Service with backends here and on other nodes)' },
  { tone: 'flagged', label: 'Gets through, but a finding on its path says otherwise' },
  { tone: 'dropped', label: 'Dropped' },
  { tone: 'unknown', label: 'Unknown' },
  { tone: 'ambiguous', label: 'Ambiguous (rules or backends disagree)' },
  { tone: 'insufficient', label: 'Insufficient information' },
  { tone: 'none', label: 'Not worked out' },
];

/** Worst first: a collapsed group shows the worst outcome among its cells. */
const RANK: ReachTone[] = ['dropped', 'flagged', 'ambiguous', 'unknown', 'insufficient', 'split', 'forwarded', 'delivered', 'none'];

const gets = (v: ReachVerdict | null) => v === 'delivered' || v === 'forwarded' || v === 'delivered or forwarded';

/**
 * A cell's tone: its verdict's, except a packet that gets through with an error or a warning on its
 * path (a pod whose vNIC never arrived, an OutBoundNAT exception that lets everything out unSNATed):
 * the walk panel says "Delivered, but …" in the finding's colour (renderer/src/walk/verdict.ts), and a
 * green cell would say the opposite.
 */
export function toneOf(c: ReachCellView): ReachTone {
  if (gets(c.verdict) && c.findings.some((f) => f.severity === 'error' || f.severity === 'warning')) return 'flagged';
  return TONE_OF[c.verdict];
}

/** A packet that gets there whose answer does not come back (or is undecided). */
export function isAsymmetric(c: ReachCellView): boolean {
  return gets(c.verdict) && c.reply !== null && !gets(c.reply);
}

export function matches(c: ReachCellView, f: ReachFilter): boolean {
  switch (f.kind) {
    case 'all':
      return true;
    case 'dropped':
      return c.verdict === 'dropped';
    case 'asymmetric':
      return isAsymmetric(c);
    case 'finding':
      return c.findings.some((x) => x.key === f.key);
  }
}

/** The findings any cell touches, most cells first (the "what a finding touches" choices). */
export function findingsTouched(v: ReachMatrixView): { key: string; title: string; severity: string; cells: number }[] {
  const by = new Map<string, { key: string; title: string; severity: string; cells: number }>();
  for (const c of v.cells)
    for (const f of c.findings) {
      const e = by.get(f.key) ?? { key: f.key, title: f.title, severity: f.severity, cells: 0 };
      e.cells++;
      by.set(f.key, e);
    }
  return [...by.values()].sort((a, b) => b.cells - a.cells || a.title.localeCompare(b.title));
}

export function endLabel(e: ReachEnd): string {
  // An IPv6 address with a port in brackets (RFC 3986), so the port is not read as its last group.
  const host = e.family === 6 && e.port !== undefined && e.proto !== 'icmp' ? `[${e.ip}]` : e.ip;
  const where = e.port !== undefined && e.proto !== 'icmp' ? `${host}:${e.port}/${e.proto?.toUpperCase()}` : e.proto === 'icmp' ? `${e.ip} (ping)` : e.ip;
  if (!e.name || e.name === e.ip) return where;
  return `${e.name} · ${where}`;
}

/**
 * A row or column under its group's header: the namespace the header names is not repeated, so the
 * pod's own name and its address fit the row's width (the cell's words keep endLabel's whole name).
 */
function lineLabel(e: ReachEnd): string {
  const ns = e.namespace ? `${e.namespace}/` : undefined;
  return ns && e.name?.startsWith(ns) ? endLabel({ ...e, name: e.name.slice(ns.length) }) : endLabel(e);
}

/**
 * On a dual-stack node the IPv6 sources and destinations are groups of their own, after the IPv4 ones
 * ("IPv6 pods · default"): a packet keeps its family, so the cells between the two families are never
 * walked, and grouping by family keeps those blank blocks off the diagonal.
 */
const fam = (e: ReachEnd) => (e.family === 6 ? { id: '6', label: 'IPv6 ' } : { id: '', label: '' });
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function rowGroup(e: ReachEnd): { id: string; label: string } {
  const f = fam(e);
  if (e.kind === 'host') return { id: `host${f.id}`, label: cap(`${f.label}host`) };
  return { id: `pods${f.id}:${e.namespace ?? ''}`, label: e.namespace ? cap(`${f.label}pods · ${e.namespace}`) : cap(`${f.label}pods`) };
}

function colGroup(e: ReachEnd): { id: string; label: string } {
  const f = fam(e);
  switch (e.kind) {
    case 'pod':
    case 'host':
      return { id: `pods${f.id}:${e.namespace ?? ''}`, label: e.namespace ? cap(`${f.label}pods · ${e.namespace}`) : cap(`${f.label}pods`) };
    case 'service':
      return { id: `svc${f.id}:${e.namespace ?? ''}`, label: e.namespace ? cap(`${f.label}Services · ${e.namespace}`) : cap(`${f.label}Services (not named)`) };
    case 'remote':
      return f.id ? { id: 'remote6', label: 'IPv6 remote pods' } : { id: 'remote', label: 'Remote pod subnets' };
    case 'node':
    case 'outside':
      return { id: `out${f.id}`, label: f.id ? 'IPv6 node, outside' : 'Node and outside' };
  }
}

const KIND_ORDER: Record<string, number> = { pods: 0, host: 1, svc: 2, remote: 3, out: 4, pods6: 5, host6: 6, svc6: 7, remote6: 8, out6: 9 };
const groupOrder = (id: string) => KIND_ORDER[id.split(':')[0] ?? ''] ?? 19;

/** Groups ends in their order of kind, then by namespace; members keep the analysis's order. */
function groupLines(ends: readonly ReachEnd[], keep: (i: number) => boolean, groupOf: (e: ReachEnd) => { id: string; label: string }, collapsed: ReadonlySet<string>, prefix: string): ReachLine[] {
  const groups = new Map<string, { id: string; label: string; members: number[] }>();
  ends.forEach((e, i) => {
    if (!keep(i)) return;
    const g = groupOf(e);
    const id = `${prefix}${g.id}`;
    const x = groups.get(id) ?? { id, label: g.label, members: [] };
    x.members.push(i);
    groups.set(id, x);
  });
  const sorted = [...groups.values()].sort((a, b) => groupOrder(a.id.slice(prefix.length)) - groupOrder(b.id.slice(prefix.length)) || a.label.localeCompare(b.label));
  const out: ReachLine[] = [];
  for (const g of sorted) {
    const isCollapsed = collapsed.has(g.id);
    out.push({ type: 'group', id: g.id, label: g.label, members: g.members, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (const i of g.members) {
      const e = ends[i];
      if (e) out.push({ type: 'end', index: i, group: g.id, label: lineLabel(e) });
    }
  }
  return out;
}

function verdictWords(v: ReachVerdict): string {
  return v === 'insufficient information' ? 'insufficient information' : v;
}

/** What decided a cell, in words (the tooltip and the aria-label). */
export function cellWords(v: ReachMatrixView, c: ReachCellView): string {
  const src = v.sources[c.s];
  const dst = v.destinations[c.d];
  // A cell of another view names ends this one does not have: nothing to say.
  if (!src || !dst) return '';
  const but = toneOf(c) === 'flagged' ? ', but a finding on its path says otherwise' : '';
  // A verdict that rests on an inference says so first (issue #25: never shown as plain fact).
  const inferred = c.verdictInferred !== undefined ? ' (inferred)' : '';
  const parts = [`${endLabel(src)} to ${endLabel(dst)}: ${verdictWords(c.verdict)}${inferred}${but}`];
  parts.push(c.decidingRule ? `decided by rule ${c.decidingRule} (${c.decidedAt})` : `decided at ${c.decidedAt}`);
  if (c.reason) parts.push(c.reason);
  if (c.verdictInferred !== undefined) parts.push(`inferred at ${c.verdictInferred}`);
  if (c.backends?.length) parts.push(`backends: ${c.backends.map((b) => `${b.dip} ${verdictWords(b.verdict)}${b.decidingRule ? ` by ${b.decidingRule}` : ''}`).join('; ')}`);
  if (c.reply) parts.push(`reply: ${verdictWords(c.reply)}`);
  if (c.findings.length) parts.push(`findings on the path: ${c.findings.map((f) => f.title).join('; ')}`);
  if (dst.inferred) parts.push(`assumed: ${dst.inferred}`);
  return parts.join('. ');
}

/** The packet whose walk a cell opens: its example (source, destination, port, protocol). */
export function cellFlow(v: ReachMatrixView, c: ReachCellView): Flow | undefined {
  const s = v.sources[c.s];
  const d = v.destinations[c.d];
  if (!s || !d) return undefined;
  const proto = d.proto ?? 'icmp';
  return { srcIp: s.ip, dstIp: d.ip, proto, ...(d.port !== undefined && proto !== 'icmp' ? { dstPort: d.port } : {}) };
}

/** Column groups wider than this start collapsed (one column summing them up; a click opens them). */
export const WIDE_GROUP = 50;

/**
 * The groups that start collapsed: the Services' (a namespace's Services sum up in one column; a node
 * with 2,000 Services would otherwise open on a grid hundreds of screens wide) and any other column
 * group of more than WIDE_GROUP destinations. Rows stay open.
 */
export function defaultCollapsed(v: ReachMatrixView): Set<string> {
  const lines = groupLines(v.destinations, () => true, colGroup, new Set(), 'col:');
  return new Set(lines.flatMap((l) => (l.type === 'group' && (l.members.length > WIDE_GROUP || /^col:svc6?:/.test(l.id)) ? [l.id] : [])));
}

export interface GridOptions {
  /** Walks are under way: a cell not worked out may still come. */
  running?: boolean;
}

/**
 * The grid: the lines of rows and columns that have a cell matching the filter (every line without a
 * filter), groups collapsed as asked, and the cell at any row × column.
 */
export function reachGrid(v: ReachMatrixView, filter: ReachFilter, collapsed: ReadonlySet<string>, opts: GridOptions = {}): ReachGrid {
  const byKey = new Map<number, ReachCellView>();
  const nd = v.destinations.length;
  const rowHit = new Set<number>();
  const colHit = new Set<number>();
  const counts: Record<ReachTone, number> = { delivered: 0, forwarded: 0, split: 0, flagged: 0, dropped: 0, unknown: 0, ambiguous: 0, insufficient: 0, none: 0 };
  for (const c of v.cells) {
    byKey.set(c.s * nd + c.d, c);
    if (matches(c, filter)) {
      rowHit.add(c.s);
      colHit.add(c.d);
      counts[toneOf(c)]++;
    }
  }
  const all = filter.kind === 'all';
  const rows = groupLines(v.sources, (i) => all || rowHit.has(i), rowGroup, collapsed, 'row:');
  const cols = groupLines(v.destinations, (i) => all || colHit.has(i), colGroup, collapsed, 'col:');
  const membersOf = (l: ReachLine) => (l.type === 'group' ? l.members : [l.index]);
  // The analysis does not walk a source to its own address, nor to the other family's addresses: nothing
  // is missing there.
  const self = (s: number, d: number) => {
    const ip = v.sources[s]?.ip;
    return ip !== undefined && ip === v.destinations[d]?.ip;
  };
  const otherFamily = (s: number, d: number) => !!v.sources[s] && !!v.destinations[d] && v.sources[s].family !== v.destinations[d].family;
  const skip = (s: number, d: number) => self(s, d) || otherFamily(s, d);
  const notYet = opts.running ? 'not worked out yet' : 'not worked out (Enter works it out)';
  const at = (r: number, k: number): ReachGridCell => {
    const row = rows[r];
    const col = cols[k];
    if (!row || !col) return { tone: 'none', glyph: '', match: false, label: '', missing: 0, inferred: false };
    if (row.type === 'end' && col.type === 'end') {
      const c = byKey.get(row.index * nd + col.index);
      if (!c) {
        if (otherFamily(row.index, col.index)) return { tone: 'none', glyph: '', match: false, label: `${row.label} to ${col.label}: not walked, the two addresses are of different families (IPv4 and IPv6)`, missing: 0, inferred: false };
        const same = self(row.index, col.index);
        return { tone: 'none', glyph: same ? '·' : '', match: false, label: `${row.label} to ${col.label}: ${same ? 'the same address, not walked' : notYet}`, missing: same ? 0 : 1, inferred: false };
      }
      const tone = toneOf(c);
      return { tone, glyph: GLYPH[tone], match: matches(c, filter), label: cellWords(v, c), cell: c, missing: 0, inferred: c.verdictInferred !== undefined };
    }
    // A group line: the worst outcome among its cells, and how many of each.
    const tally = new Map<ReachTone, number>();
    // Per tone, how many of its cells rest on an inference (the group shows its worst tone's).
    const guessed = new Map<ReachTone, number>();
    let match = false;
    let missing = 0;
    for (const s of membersOf(row))
      for (const d of membersOf(col)) {
        const c = byKey.get(s * nd + d);
        if (!c) {
          if (!skip(s, d)) missing++;
          continue;
        }
        if (!matches(c, filter)) continue;
        match = true;
        const t = toneOf(c);
        tally.set(t, (tally.get(t) ?? 0) + 1);
        if (c.verdictInferred !== undefined) guessed.set(t, (guessed.get(t) ?? 0) + 1);
      }
    const worst = RANK.find((t) => tally.has(t)) ?? 'none';
    const what = [...tally].sort((a, b) => RANK.indexOf(a[0]) - RANK.indexOf(b[0])).map(([t, n]) => `${n} ${LEGEND.find((l) => l.tone === t)!.label.toLowerCase()}${guessed.get(t) ? ` (${guessed.get(t)} of them inferred)` : ''}`);
    if (missing) what.push(`${missing} ${notYet}`);
    return { tone: worst, glyph: GLYPH[worst], match, label: `${row.label} to ${col.label}: ${what.join(', ') || 'nothing to walk'}`, missing, inferred: (guessed.get(worst) ?? 0) > 0 };
  };
  const block = (r: number, k: number) => ({ sources: rows[r] ? membersOf(rows[r]) : [], destinations: cols[k] ? membersOf(cols[k]) : [] });
  return { rows, cols, at, counts, block };
}
