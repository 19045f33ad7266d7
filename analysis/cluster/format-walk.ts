// The readable form of a walk across nodes: each node's half under its name and bundle, the hand-over
// between them, the verdict with its flags and caveats (named by node), then the reply the same way.
import { caveatClause, formatHop, formatTuple, hopFlags, walkFindingText } from '../walk/format.ts';
import type { StitchedWalk } from './walk-across.ts';

function body(w: StitchedWalk, out: string[]): void {
  let leg = -1;
  let n = 0;
  const findingsAt = (i: number) => {
    for (const f of w.findings ?? []) if (f.hop === i) out.push(`      ${walkFindingText(f)}${f.acrossNodes ? ' [across nodes]' : ''}`);
  };
  w.hops.forEach((h, i) => {
    if (h.kind === 'handover') {
      const flags = h.inferred ? '  (inferred)' : '';
      out.push(`  ⇒ ${h.action}: ${h.at}${flags}${h.evidence ? `  — ${h.node}: ${h.evidence.file}:${h.evidence.line}` : ''}`);
      if (h.note) out.push(`      ${h.note}`);
      findingsAt(i);
      return;
    }
    if (h.leg !== leg) {
      leg = h.leg;
      out.push('');
      out.push(`on ${h.node} (${h.bundle})`);
    }
    out.push(...formatHop({ ...h, kind: h.kind as Exclude<typeof h.kind, 'handover'> }, n++));
    findingsAt(i);
  });
  out.push('');
  const flags = [w.dependsOnUnmodelled ? 'depends on an unmodelled rule' : '', w.inferred ? 'some steps are inferred' : ''].filter(Boolean);
  out.push(`verdict: ${w.verdict.toUpperCase()}${flags.length ? ` (${flags.join('; ')})` : ''}${w.verdictCaveat ? `, ${caveatClause(w)}` : ''} — ${w.reason}`);
  for (const f of w.findings ?? []) if (f.hop === undefined || !w.hops[f.hop]) out.push(`${walkFindingText(f)} (${f.node})`);
  out.push(`nodes:   ${w.legs.map((l) => l.node).join(' → ') || '(none)'}`);
  out.push(`final:   ${formatTuple(w.final)}`);
  const d = w.hops[w.deciding];
  if (d) out.push(`decided by: ${d.rule ? `${d.rule}${d.layer ? ` (${d.layer})` : ''}` : d.at} on ${d.node}${d.evidence ? ` at ${d.evidence.file}:${d.evidence.line}` : ''}${hopFlags({ ...d, kind: 'note' }).length ? ` (${hopFlags({ ...d, kind: 'note' }).join(', ')})` : ''}`);
  for (const c of w.caveats) out.push(`caveat (${c.kind}${c.node ? `, ${c.node}` : ''}): ${c.text}${c.source ? ` [${c.source}]` : ''}`);
}

export function formatStitched(w: StitchedWalk): string {
  const out: string[] = [];
  const src = w.hops[0]?.after?.srcPort ?? w.flow.srcPort;
  out.push(`trace across nodes ${formatTuple({ ...w.flow, srcPort: src })}`);
  body(w, out);
  if (w.reply) {
    out.push('');
    out.push(`reply ${formatTuple(w.reply.flow)}`);
    body(w.reply, out);
  }
  return out.join('\n') + '\n';
}
