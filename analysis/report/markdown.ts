// The report as GitHub-flavoured Markdown, ready to paste into an issue: tables for the node and
// each walk, collapsible <details> for long evidence, the path as a text chain (GitHub does not show
// inline SVG or data: images; the HTML export has the pictures).
import { platformText } from './html.ts';
import type { ReportDocument, ReportEvidence, ReportFinding, ReportNote, ReportTrace } from './types.ts';

/** Text for a table cell: no pipe, no newline, no raw HTML. */
export function cell(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Text for a paragraph: HTML-escaped so a `<` in a rule name cannot open a tag. */
function para(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline code that survives backticks inside. */
function code(s: string): string {
  if (!s) return '';
  const ticks = s.includes('`') ? '``' : '`';
  return `${ticks}${ticks.length > 1 ? ' ' : ''}${s}${ticks.length > 1 ? ' ' : ''}${ticks}`;
}

function codeCell(s: string): string {
  return code(s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' '));
}

function fence(lines: string[]): string {
  const body = lines.join('\n');
  const f = body.includes('```') ? '~~~~' : '```';
  return `${f}text\n${body}\n${f}`;
}

const ICON: Record<string, string> = { error: '🔴', warning: '🟠', info: 'ℹ️', delivered: '✅', forwarded: '➡️', dropped: '⛔', unknown: '❔' };

export function renderMarkdown(doc: ReportDocument): string {
  const o: string[] = [];
  o.push(`# ${para(doc.title)}`, '');
  const meta = [doc.node.hostName ? `node **${para(doc.node.hostName)}**` : undefined, code(doc.node.location), doc.generatedAt ? `generated ${doc.generatedAt}` : undefined, `by ${doc.generator}`, doc.redacted ? '**redacted**' : undefined].filter(Boolean);
  o.push(meta.join(' · '), '');
  if (doc.summary.trim()) o.push(...doc.summary.trim().split(/\r?\n/).map((l) => `> ${para(l)}`), '');
  for (const n of doc.notes.filter((x) => x.target.kind === 'report')) o.push(...note(n));

  const errors = doc.findings.filter((f) => f.severity === 'error').length;
  const warnings = doc.findings.filter((f) => f.severity === 'warning').length;
  o.push(`**${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}**, ${doc.traces.length} packet walk${doc.traces.length === 1 ? '' : 's'}.`, '');
  if (doc.traces.length) {
    o.push('| # | walk | verdict | why |', '|---|---|---|---|');
    doc.traces.forEach((t, i) => o.push(`| ${i + 1} | ${cell(t.title)} | ${ICON[t.verdict]} ${t.verdict} | ${cell(t.reason)} |`));
    o.push('');
  }

  o.push('## Findings', '');
  if (!doc.findings.length) o.push('No errors or warnings.', '');
  for (const f of doc.findings) o.push(...finding(f));
  if (doc.infoFindingsOmitted) o.push(`_${doc.infoFindingsOmitted} informational finding(s) not shown._`, '');

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
  const where = `${e.file}:${e.line}`;
  if (!e.lines.length) return [`- ${code(where)}`];
  if (e.lines.length === 1) return [`- ${code(where)} ${code(e.lines[0].trim())}`];
  return [`- ${code(where)}`, '', `<details><summary>${para(e.lines[0].trim())}</summary>`, '', fence(e.lines), '', '</details>', ''];
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
  const o = [`### ${i + 1}. ${para(t.title)}`, '', `${ICON[t.verdict]} **${t.verdict.toUpperCase()}**${t.flags.length ? ` _(${para(t.flags.join('; '))})_` : ''} — ${para(t.reason)}`, ''];
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
  o.push('| # | where | layer / group / rule | action | rewrite | evidence |', '|---|---|---|---|---|---|');
  for (const h of t.hops) {
    const rule = [h.layer, h.group, h.rule].filter(Boolean).join(' / ');
    const action = `${h.action}${h.flags.length ? ` _(${h.flags.join(', ')})_` : ''}`;
    const extra = [h.unmodelled ? `unmodelled: ${h.unmodelled}` : '', h.note, h.alternatives.length ? `other backends: ${h.alternatives.join(', ')}` : ''].filter(Boolean).join('; ');
    o.push(`| ${h.index + 1}${h.deciding ? ' ★' : ''} | ${cell(h.at)} | ${rule ? codeCell(rule) : ''}${h.ruleType ? ` [${cell(h.ruleType)}]` : ''} | ${cell(action)}${extra ? `<br><sub>${cell(extra)}</sub>` : ''} | ${cell(h.rewrite)} | ${h.evidence ? code(`${h.evidence.file}:${h.evidence.line}`) : ''} |`);
  }
  o.push('', '★ decided the verdict.', '');
  if (t.reply) {
    const r = t.reply;
    const rf = r.final;
    o.push(`**Reply:** ${ICON[r.verdict]} **${r.verdict.toUpperCase()}**${r.flags.length ? ` _(${para(r.flags.join('; '))})_` : ''} — ${para(r.reason)}; at the end ${code(`${rf.proto.toUpperCase()} ${rf.srcIp}${rf.srcPort !== undefined ? `:${rf.srcPort}` : ''} → ${rf.dstIp}${rf.dstPort !== undefined ? `:${rf.dstPort}` : ''}`)}`, '');
    for (const c of r.caveats) o.push(`- _${c.kind}:_ ${para(c.text)}${c.source ? ` (${para(c.source)})` : ''}`);
    if (r.caveats.length) o.push('');
  }
  for (const h of t.hops) for (const n of h.notes) o.push(...note(n));
  const blocks = t.hops.filter((h) => h.evidence && h.evidence.lines.length > 1);
  if (blocks.length) {
    o.push(`<details><summary>Rules behind the hops (${blocks.length})</summary>`, '');
    for (const h of blocks) o.push(`Hop ${h.index + 1}, ${code(`${h.evidence!.file}:${h.evidence!.line}`)}`, '', fence(h.evidence!.lines), '');
    o.push('</details>', '');
  }
  return o;
}
