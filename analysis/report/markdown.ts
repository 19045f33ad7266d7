// The report as GitHub-flavoured Markdown, ready to paste into an issue: tables for the node and
// each walk, collapsible <details> for long evidence, the path as a text chain (GitHub does not show
// inline SVG or data: images; the HTML export has the pictures).
import { platformText } from './html.ts';
import type { ReportDocument, ReportEvidence, ReportFinding, ReportHop, ReportNote, ReportTrace } from './types.ts';
import type { WalkFinding } from '../walk/types.ts';
import { caveatClause, matchedText } from '../walk/format.ts';
import { redactionMarkdown } from './redaction-text.ts';
import { servicesMarkdown } from './services-section.ts';
import { sourceRef } from './where.ts';
import { cell, para, htmlText, code, codeCell, fence } from './markdown-text.ts';
import { plural } from '../../parsers/text/quantities.ts';

export { splitCodeSpans } from './code-spans.ts';

export const ICON: Record<string, string> = { error: '🔴', warning: '🟠', info: 'ℹ️', delivered: '✅', forwarded: '➡️', dropped: '⛔', unknown: '❔' };

export function renderMarkdown(doc: ReportDocument): string {
  const o: string[] = [];
  o.push(`# ${para(doc.title)}`, '');
  const meta = [doc.node.hostName ? `node **${para(doc.node.hostName)}**` : undefined, code(doc.node.location), doc.generatedAt ? `generated ${doc.generatedAt}` : undefined, `by ${doc.generator}`, doc.redacted ? '**redacted**' : undefined].filter(Boolean);
  o.push(meta.join(' · '), '');
  o.push(...redactionMarkdown(doc.redaction));
  if (doc.summary.trim()) o.push(...doc.summary.trim().split(/\r?\n/).map((l) => `> ${para(l)}`), '');
  for (const n of doc.notes.filter((x) => x.target.kind === 'report')) o.push(...note(n));

  const errors = doc.findings.filter((f) => f.severity === 'error').length;
  const warnings = doc.findings.filter((f) => f.severity === 'warning').length;
  o.push(`**${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}**, ${doc.traces.length} packet walk${doc.traces.length === 1 ? '' : 's'}.`, '');
  if (doc.traces.length) {
    o.push('| # | walk | verdict | why |', '|---|---|---|---|');
    doc.traces.forEach((t, i) => o.push(`| ${i + 1} | ${cell(t.title)} | ${ICON[t.verdict]} ${t.verdict}${t.verdictCaveat ? `, ${ICON[t.verdictCaveat.severity]} ${cell(caveatClause(t))}` : ''} | ${cell(t.reason)} |`));
    o.push('');
  }

  o.push('## Findings', '');
  if (!doc.findings.length) o.push('No errors or warnings.', '');
  for (const f of doc.findings) o.push(...finding(f));
  if (doc.infoFindingsOmitted) o.push(`_${plural(doc.infoFindingsOmitted, 'informational finding')} not shown._`, '');

  o.push(...servicesMarkdown(doc));

  o.push('## Packet walks', '');
  doc.traces.forEach((t, i) => o.push(...walk(t, i)));

  const other = doc.notes.filter((x) => x.target.kind !== 'report');
  if (other.length) {
    o.push('## Other notes', '');
    for (const n of other) o.push(...note(n));
  }

  o.push('## The node', '');
  const n = doc.node;
  const c = n.counts;
  const num = (v: number | null) => (v === null ? '_not in bundle_' : String(v));
  o.push('| | |', '|---|---|');
  o.push(`| host name | ${cell(n.hostName ?? '—')}${n.k8sNodeName && n.k8sNodeName !== n.hostName ? ` (Kubernetes node ${cell(n.k8sNodeName)})` : ''} |`);
  o.push(`| network plugin | ${cell(platformText(n.platform))}${n.platform.evidence.map((e) => `<br>${cell(`${e.file}${e.line ? `:${e.line}` : ''} — ${e.says}`)}`).join('')}${n.platform.checks.skipped.length ? `<br>${cell(`not run here: ${n.platform.checks.skipped.map((c) => c.title).join(', ')}`)}` : ''} |`);
  o.push(`| Windows build | ${cell(n.windowsBuild ?? '—')} |`);
  o.push(`| HNS schema | ${n.schemaVersion !== undefined ? `v${n.schemaVersion}` : '—'} |`);
  o.push(`| vfpctrl output | ${cell(n.vfpGeneration ?? '—')} |`);
  o.push(`| collector | ${cell(n.collector ?? '—')} |`);
  o.push(`| networks | ${n.networks.map((x) => cell(`${x.name} (${x.type}${x.subnets.length ? ` ${x.subnets.join(', ')}` : ''})`)).join('<br>') || '—'} |`);
  o.push(`| HNS endpoints (local / remote) | ${num(c.endpoints)}${c.endpoints !== null ? ` (${c.localEndpoints} / ${c.remoteEndpoints})` : ''} |`);
  o.push(`| load balancers | ${num(c.loadBalancers)} |`);
  o.push(`| compartments / adapters | ${num(c.compartments)}${c.adapters !== null ? ` / ${c.adapters}` : ''} |`);
  o.push(`| VFP ports / layers / rules | ${num(c.vfpPorts)}${c.vfpLayers !== null ? ` / ${c.vfpLayers} / ${c.vfpRules}` : ''} |`);
  o.push(`| IPv4 routes | ${num(c.ipv4Routes)} |`);
  o.push(`| files read | ${n.filesRead}${n.filesWithErrors.length ? ` (with errors: ${cell(n.filesWithErrors.join(', '))})` : ''} |`);
  o.push('');
  o.push(`<sub>Made by ${para(doc.generator)} from the bundle's own files; each hop and finding cites its file and line. _(inferred)_ marks the walk's assumptions. The HTML export of this report has the topology and path pictures.</sub>`, '');
  return o.join('\n');
}

function note(n: ReportNote): string[] {
  return [`> 📝 **Note** on ${para(n.on)}:`, ...n.text.trim().split(/\r?\n/).map((l) => `> ${para(l)}`), ''];
}

function evidenceLines(e: ReportEvidence): string[] {
  const where = sourceRef(e.file, e.line);
  if (!e.lines.length) return [`- ${code(where)}`];
  if (e.lines.length === 1) return [`- ${code(where)} ${code((e.lines[0] ?? '').trim())}`];
  return [`- ${code(where)}`, '', `<details><summary>${htmlText((e.lines[0] ?? '').trim())}</summary>`, '', fence(e.lines), '', '</details>', ''];
}

function finding(f: ReportFinding): string[] {
  const o = [`### ${ICON[f.severity]} ${f.severity}: ${para(f.title)}`, '', para(f.explanation), '', `**Fix:** ${para(f.fix)}`, ''];
  if (f.objects.length) o.push(`Objects: ${f.objects.map(code).join(', ')}`, '');
  if (f.evidence.length) {
    o.push('**Evidence**', '');
    for (const e of f.evidence) o.push(...evidenceLines(e));
    o.push('');
  }
  for (const n of f.notes) o.push(...note(n));
  return o;
}

function walk(t: ReportTrace, i: number): string[] {
  const o = [`### ${i + 1}. ${para(t.title)}`, '', `${ICON[t.verdict]} **${t.verdict.toUpperCase()}**${t.verdictCaveat ? `, ${ICON[t.verdictCaveat.severity]} **${para(caveatClause(t))}**` : ''}${t.flags.length ? ` _(${para(t.flags.join('; '))})_` : ''} — ${para(t.reason)}`, ''];
  o.push(...offPath(t.findings, t.hops));
  for (const c of t.caveats) o.push(`- _${c.kind}:_ ${para(c.text)}${c.source ? ` (${para(c.source)})` : ''}`);
  if (t.caveats.length) o.push('');
  const fin = t.final;
  const eg = [t.egress.nextHop && `next hop ${t.egress.nextHop}`, t.egress.interface && `interface ${t.egress.interface}`, t.egress.encapDst && `encap to ${t.egress.encapDst}`].filter(Boolean).join(', ');
  o.push(`Packet at the end: ${code(`${fin.proto.toUpperCase()} ${fin.srcIp}${fin.srcPort !== undefined ? `:${fin.srcPort}` : ''} → ${fin.dstIp}${fin.dstPort !== undefined ? `:${fin.dstPort}` : ''}`)}${eg ? ` (${eg})` : ''}`, '');
  for (const n of t.notes) o.push(...note(n));
  if (t.path.length) {
    const chain = t.path.map((s) => `${code(`${s.kind} ${s.label}`)}${s.next?.length ? ` → _${para(s.next.join('; '))}_` : ''}`);
    o.push(`**Path:** ${chain.join(' → ')} → ${ICON[t.verdict]} ${t.verdict}`, '');
  }
  o.push('| # | where | layer / group / rule | matched because | action | rewrite | evidence |', '|---|---|---|---|---|---|---|');
  for (const h of t.hops) {
    const rule = [h.layer, h.group, h.rule].filter(Boolean).join(' / ');
    const action = `${h.action}${h.flags.length ? ` _(${h.flags.join(', ')})_` : ''}`;
    const extra = [h.unmodelled ? `unmodelled: ${h.unmodelled}` : '', h.note, h.alternatives.length ? `other backends: ${h.alternatives.join(', ')}` : ''].filter(Boolean).join('; ');
    const found = t.findings.filter((f) => f.hop === h.index).map((f) => `${ICON[f.severity]} **${cell(f.title)}** — ${cell(f.why)}`);
    o.push(`| ${h.index + 1}${h.deciding ? ' ★' : ''} | ${cell(h.at)} | ${rule ? codeCell(rule) : ''}${h.ruleType ? ` [${cell(h.ruleType)}]` : ''} | ${cell(matched(h))} | ${cell(action)}${extra ? `<br><sub>${cell(extra)}</sub>` : ''}${found.map((x) => `<br>${x}`).join('')} | ${cell(h.rewrite)} | ${h.evidence ? code(sourceRef(h.evidence.file, h.evidence.line)) : ''} |`);
  }
  o.push('', '★ decided the verdict.', '');
  if (t.reply) {
    const r = t.reply;
    const rf = r.final;
    o.push(`**Reply:** ${ICON[r.verdict]} **${r.verdict.toUpperCase()}**${r.verdictCaveat ? `, ${ICON[r.verdictCaveat.severity]} **${para(caveatClause(r))}**` : ''}${r.flags.length ? ` _(${para(r.flags.join('; '))})_` : ''} — ${para(r.reason)}; at the end ${code(`${rf.proto.toUpperCase()} ${rf.srcIp}${rf.srcPort !== undefined ? `:${rf.srcPort}` : ''} → ${rf.dstIp}${rf.dstPort !== undefined ? `:${rf.dstPort}` : ''}`)}`, '');
    for (const c of r.caveats) o.push(`- _${c.kind}:_ ${para(c.text)}${c.source ? ` (${para(c.source)})` : ''}`);
    if (r.caveats.length) o.push('');
    for (const f of r.findings) o.push(`- ${ICON[f.severity]} ${f.hop !== undefined ? `reply hop ${f.hop + 1}: ` : ''}**${para(f.title)}** — ${para(f.why)}`);
    if (r.findings.length) o.push('');
  }
  for (const h of t.hops) for (const n of h.notes) o.push(...note(n));
  const blocks = t.hops.filter((h) => h.evidence && h.evidence.lines.length > 1);
  if (blocks.length) {
    o.push(`<details><summary>Rules behind the hops (${blocks.length})</summary>`, '');
    for (const h of blocks) o.push(`Hop ${h.index + 1}, ${code(sourceRef(h.evidence!.file, h.evidence!.line))}`, '', fence(h.evidence!.lines), '');
    o.push('</details>', '');
  }
  return o;
}

/** Why a hop's rule matched, in words (empty for hops that are no rule match). */
function matched(h: ReportHop): string {
  return matchedText(h) ?? '';
}

/** Findings on the path that concern no hop of the table (listed under the verdict). */
function offPath(fs: WalkFinding[], hops: ReportHop[]): string[] {
  const loose = fs.filter((f) => f.hop === undefined || !hops[f.hop]);
  return loose.length ? [...loose.map((f) => `- ${ICON[f.severity]} **${para(f.title)}** — ${para(f.why)}`), ''] : [];
}
