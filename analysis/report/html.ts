// The report as one self-contained HTML file: inline CSS and inline SVG pictures, no script, no
// external request (a CSP meta tag forbids them), readable on screen and when printed (PDF).
import type { ReportDocument, ReportEvidence, ReportFinding, ReportHop, ReportNote, ReportTrace } from './types.ts';
import { platformName } from '../platform/name.ts';
import { xml as esc } from './svg.ts';
import { codeParts } from './code-spans.ts';
import { redactionHtml } from './redaction-text.ts';
import { servicesHtml } from './services-section.ts';
import { sourceRef } from './where.ts';
import { pageCss, REPORT_CSS, type PageSize } from './report-css.ts';
import { caveatClause, matchedText } from '../walk/format.ts';
import type { WalkFinding } from '../walk/types.ts';
import { plural } from '../../parsers/text/quantities.ts';


export { REPORT_CSS } from './report-css.ts';

export interface HtmlOptions {
  /** The paper the report is printed on (PDF, or a browser's print): A4 unless told. */
  page?: PageSize;
}

export function renderHtml(doc: ReportDocument, opts: HtmlOptions = {}): string {
  const o: string[] = [];
  o.push('<!DOCTYPE html>');
  o.push('<html lang="en"><head><meta charset="utf-8">');
  o.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  o.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  o.push(`<meta name="generator" content="${esc(doc.generator)}">`);
  o.push(`<title>${esc(doc.title)}</title><style>${REPORT_CSS}${pageCss(opts.page ?? 'a4', doc.node.hostName ? `node ${doc.node.hostName}` : doc.title)}</style></head><body><main>`);
  o.push('<section class="first-page">');
  o.push(`<h1>${esc(doc.title)}</h1>`);
  const meta = [doc.node.hostName ? `node <b>${esc(doc.node.hostName)}</b>` : 'node (host name not in the bundle)', esc(doc.node.location), doc.generatedAt ? `generated ${esc(doc.generatedAt)}` : '', `by ${esc(doc.generator)}`].filter(Boolean);
  o.push(`<p class="meta">${meta.join(' · ')}${doc.redacted ? ' <span class="badge redacted">redacted</span>' : ''}</p>`);
  if (doc.redaction) o.push(redactionHtml(doc.redaction));
  if (doc.summary.trim()) o.push(`<div class="summary">${esc(doc.summary.trim())}</div>`);
  for (const n of doc.notes.filter((x) => x.target.kind === 'report')) o.push(note(n));
  o.push(atAGlance(doc));
  o.push('</section>');

  o.push('<h2 id="findings">Findings</h2>');
  if (!doc.findings.length) o.push(`<p class="muted">No errors or warnings.${doc.infoFindingsOmitted ? ` ${plural(doc.infoFindingsOmitted, 'informational finding')} not shown.` : ''}</p>`);
  for (const f of doc.findings) o.push(finding(f));
  if (doc.findings.length && doc.infoFindingsOmitted) o.push(`<p class="muted">${plural(doc.infoFindingsOmitted, 'informational finding')} not shown.</p>`);

  o.push(...servicesHtml(doc));

  o.push('<h2 id="walks">Packet walks</h2>');
  if (!doc.traces.length) o.push('<p class="muted">No walk was chosen.</p>');
  doc.traces.forEach((t, i) => o.push(walk(t, i)));

  const other = doc.notes.filter((x) => x.target.kind !== 'report');
  if (other.length) {
    o.push('<h2 id="notes">Other notes</h2>');
    for (const n of other) o.push(note(n));
  }

  // On paper the picture gets a landscape page of its own, at the page's full width.
  o.push('<section class="topology-page">');
  o.push('<h2 id="topology">Node topology</h2>');
  o.push(`<p class="muted">${doc.topology.summarised ? `Only ${doc.topology.shown} of ${doc.topology.nodes} objects are drawn: the walks' paths, their neighbours and the node's skeleton.` : `${doc.topology.nodes} objects.`} Coloured lines: the walks above.</p>`);
  o.push(`<div class="figure">${doc.topology.svg}</div>`);
  o.push('</section>');

  o.push(nodeFacts(doc));
  o.push(`<footer>Made by ${esc(doc.generator)} from the bundle's own files; every hop and finding names the file and line it comes from. Steps marked <span class="inferred">inferred</span> are the walk's assumptions, not facts printed in the bundle.</footer>`);
  o.push('</main></body></html>');
  return o.join('\n') + '\n';
}

/**
 * The first page: which node and platform, the verdict of every walk, the findings by severity. A
 * reader who opens the attachment sees what is wrong before any detail.
 */
function atAGlance(doc: ReportDocument): string {
  const n = doc.node;
  const errors = doc.findings.filter((f) => f.severity === 'error').length;
  const warnings = doc.findings.filter((f) => f.severity === 'warning').length;
  const facts: [string, string][] = [
    ['node', `${esc(n.hostName ?? 'host name not in the bundle')}${n.k8sNodeName && n.k8sNodeName !== n.hostName ? ` (Kubernetes node ${esc(n.k8sNodeName)})` : ''}`],
    ['network plugin', esc(platformText(n.platform))],
    ['Windows build', esc(n.windowsBuild ?? '—')],
    ['networks', n.networks.map((x) => `${esc(x.name)} (${esc(x.type)})`).join(', ') || '—'],
  ];
  const rows = doc.traces.map((t, i) => `<tr><td>${i + 1}</td><td><a href="#walk-${i + 1}">${esc(t.title)}</a></td><td><span class="badge ${t.verdict}">${t.verdict}</span>${caveatSpan(t)}</td><td>${esc(t.reason)}</td></tr>`);
  const listed = [...doc.findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return [
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</tbody></table>`,
    `<p><span class="badge ${errors ? 'error' : 'info'}">${errors} error${errors === 1 ? '' : 's'}</span> <span class="badge ${warnings ? 'warning' : 'info'}">${warnings} warning${warnings === 1 ? '' : 's'}</span> · ${doc.traces.length} walk${doc.traces.length === 1 ? '' : 's'}</p>`,
    listed.length ? `<ul class="glance-findings">${listed.map((f) => `<li><span class="badge ${f.severity}">${f.severity}</span> <a href="#${findingAnchor(f)}">${esc(f.title)}</a></li>`).join('')}</ul>` : '',
    rows.length ? `<table><colgroup><col style="width:4%"><col style="width:34%"><col style="width:22%"><col style="width:40%"></colgroup><thead><tr><th>#</th><th>walk</th><th>verdict</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '',
  ].join('\n');
}

function findingAnchor(f: ReportFinding): string {
  return `finding-${esc(f.key.replace(/[^\w-]/g, '-'))}`;
}

/** `Azure CNI Overlay on AKS (high confidence)`. */
export function platformText(p: ReportDocument['node']['platform']): string {
  return `${platformName(p)} (${p.plugin === 'unknown' ? 'no known plugin named in the bundle' : `${p.confidence} confidence`})`;
}

function nodeFacts(doc: ReportDocument): string {
  const n = doc.node;
  const c = n.counts;
  const num = (v: number | null) => (v === null ? '<span class="muted">not in bundle</span>' : String(v));
  const facts: [string, string][] = [
    ['host name', esc(n.hostName ?? '—') + (n.k8sNodeName && n.k8sNodeName !== n.hostName ? ` (Kubernetes node ${esc(n.k8sNodeName)})` : '')],
    ['network plugin', `${esc(platformText(n.platform))}${n.platform.evidence.length ? `<br><span class="muted">${n.platform.evidence.map((e) => `${esc(e.file)}${e.line ? `:${e.line}` : ''} — ${esc(e.says)}`).join('<br>')}</span>` : ''}${n.platform.checks.skipped.length ? `<br><span class="muted">not run here: ${esc(n.platform.checks.skipped.map((c) => c.title).join(', '))}</span>` : ''}`],
    ['Windows build', esc(n.windowsBuild ?? '—')],
    ['HNS schema', esc(n.schemaVersion !== undefined ? `v${n.schemaVersion}` : '—')],
    ['vfpctrl output', esc(n.vfpGeneration ?? '—')],
    ['collector', esc(n.collector ?? '—')],
    ['networks', n.networks.map((x) => `${esc(x.name)} (${esc(x.type)}${x.subnets.length ? ` ${esc(x.subnets.join(', '))}` : ''})`).join('<br>') || '—'],
    ['files read', `${n.filesRead}${n.filesWithErrors.length ? ` — with errors: ${esc(n.filesWithErrors.join(', '))}` : ''}`],
  ];
  const counts: [string, string][] = [
    ['HNS networks', num(c.networks)],
    ['HNS endpoints (local / remote)', `${num(c.endpoints)}${c.endpoints !== null ? ` (${c.localEndpoints} / ${c.remoteEndpoints})` : ''}`],
    ['load balancers', num(c.loadBalancers)],
    ['compartments / adapters', `${num(c.compartments)}${c.adapters !== null ? ` / ${c.adapters}` : ''}`],
    ['VFP ports / layers / rules', `${num(c.vfpPorts)}${c.vfpLayers !== null ? ` / ${c.vfpLayers} / ${c.vfpRules}` : ''}`],
    ['IPv4 routes', num(c.ipv4Routes)],
  ];
  return [
    '<h2 id="node">The node</h2>',
    '<table class="facts"><tbody>',
    ...facts.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`),
    ...counts.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`),
    '</tbody></table>',
  ].join('\n');
}

/** A checks' text in HTML: its code spans (`Get-HnsEndpoint`) as <code>, without their backticks. */
export function prose(s: string): string {
  return codeParts(s)
    .map((p) => (p.code ? `<code>${esc(p.text)}</code>` : esc(p.text)))
    .join('');
}

function finding(f: ReportFinding): string {
  const o: string[] = [];
  o.push(`<section class="finding sev-${f.severity}" id="${findingAnchor(f)}">`);
  o.push(`<h3><span class="badge ${f.severity}">${f.severity}</span> ${esc(f.title)}</h3>`);
  o.push(`<p>${prose(f.explanation)}</p>`);
  o.push(`<p class="fix"><b>Fix:</b> ${prose(f.fix)}</p>`);
  if (f.objects.length) o.push(`<p class="muted">Objects: <span class="mono">${esc(f.objects.join(', '))}</span></p>`);
  if (f.evidence.length) o.push(`<div><b>Evidence</b>${f.evidence.map((e) => evidenceBlock(e, true)).join('')}</div>`);
  for (const n of f.notes) o.push(note(n));
  o.push(`<p class="muted mono" style="font-size:11px">${esc(f.id)}${f.undecided ? ' · could not fully decide (see explanation)' : ''}</p>`);
  o.push('</section>');
  return o.join('\n');
}

function evidenceBlock(e: ReportEvidence, open: boolean): string {
  const where = sourceRef(e.file, e.line);
  if (!e.lines.length) return `<div class="mono">${esc(where)}</div>`;
  if (open || e.lines.length === 1) return `<div class="mono muted">${esc(where)}</div><pre>${esc(e.lines.join('\n'))}</pre>`;
  return `<details><summary class="mono">${esc(where)} — ${esc((e.lines[0] ?? '').trim())}</summary><pre>${esc(e.lines.join('\n'))}</pre></details>`;
}

function note(n: ReportNote): string {
  return `<div class="note"><span class="on">Note on ${esc(n.on)}</span>${esc(n.text)}</div>`;
}

/** A rule's names, one a line, breakable after `_` (VFP names such as `REMOTESUBNETROUTE_…_10.244.20.0_24`). */
function ruleCell(h: ReportHop): string {
  if (!h.layer && !h.rule) return '';
  const parts = [h.layer, h.group, h.rule].filter(Boolean).map((s) => esc(s!).replace(/_/g, '_<wbr>'));
  return `${parts.join('<br>')}${h.ruleType ? ` <span class="muted">[${esc(h.ruleType)}${h.priority !== undefined ? `, prio ${h.priority}` : ''}]</span>` : ''}`;
}

function walk(t: ReportTrace, i: number): string {
  const o: string[] = [];
  o.push(`<section class="walk" id="walk-${i + 1}">`);
  o.push(`<h3>${i + 1}. ${esc(t.title)}</h3>`);
  o.push(`<p class="verdict"><span class="badge ${t.verdict}">${t.verdict.toUpperCase()}</span>${caveatSpan(t)}${t.flags.length ? ` <span class="inferred">(${esc(t.flags.join('; '))})</span>` : ''} ${esc(t.reason)}</p>`);
  o.push(...looseFindings(t.findings, t.hops.length));
  o.push(...caveatList(t.caveats));
  const fin = t.final;
  const eg = [t.egress.nextHop && `next hop ${t.egress.nextHop}`, t.egress.interface && `interface ${t.egress.interface}`, t.egress.encapDst && `encap to ${t.egress.encapDst}`].filter(Boolean).join(', ');
  o.push(`<p class="muted">Packet at the end: <span class="mono">${esc(`${fin.proto.toUpperCase()} ${fin.srcIp}${fin.srcPort !== undefined ? `:${fin.srcPort}` : ''} → ${fin.dstIp}${fin.dstPort !== undefined ? `:${fin.dstPort}` : ''}`)}</span>${eg ? ` · ${esc(eg)}` : ''}</p>`);
  for (const n of t.notes) o.push(note(n));
  o.push(`<div class="figure">${t.svg}</div>`);
  // The evidence is a full-width row under its hop: a rule block quoted in a narrow column wrapped mid-word.
  // The rewrite is shown under the action (a column of its own was empty on most hops).
  o.push('<table class="hops"><colgroup><col style="width:4%"><col style="width:20%"><col style="width:30%"><col style="width:21%"><col style="width:25%"></colgroup>');
  o.push('<thead><tr><th>#</th><th>where</th><th>layer / group / rule</th><th>matched because</th><th>action and rewrite</th></tr></thead><tbody>');
  for (const h of t.hops) {
    const action = `${esc(h.action)}${h.flags.length ? ` <span class="inferred">(${esc(h.flags.join(', '))})</span>` : ''}${h.unmodelled ? `<br><span class="inferred">unmodelled: ${esc(h.unmodelled)}</span>` : ''}${h.note ? `<br><span class="muted">${esc(h.note)}</span>` : ''}${h.alternatives.length ? `<br><span class="muted">other backends: ${esc(h.alternatives.join(', '))}</span>` : ''}`;
    const ev = h.evidence ? evidenceBlock(h.evidence, h.deciding || h.notes.length > 0) : '';
    const why = matchedText(h);
    o.push(`<tr${h.deciding ? ' class="deciding"' : ''}><td>${h.index + 1}${h.deciding ? ' ★' : ''}</td><td>${esc(h.at)}</td><td class="rule">${ruleCell(h)}</td><td class="matched">${why ? esc(why) : ''}</td><td>${action}${h.rewrite ? `<br><span class="mono">${esc(h.rewrite)}</span>` : ''}</td></tr>`);
    if (ev) o.push(`<tr class="evidence-row${h.deciding ? ' deciding' : ''}"><td></td><td colspan="4">${ev}</td></tr>`);
    for (const f of t.findings.filter((x) => x.hop === h.index)) o.push(`<tr class="finding-row sev-${f.severity}"><td></td><td colspan="4">${findingLine(f)}</td></tr>`);
    for (const n of h.notes) o.push(`<tr class="note-row"><td></td><td colspan="4">${note(n)}</td></tr>`);
  }
  o.push('</tbody></table>');
  o.push('<p class="muted" style="font-size:12px">★ the hop that decided the verdict.</p>');
  if (t.reply) {
    const r = t.reply;
    const rf = r.final;
    o.push(`<p class="verdict">Reply: <span class="badge ${r.verdict}">${r.verdict.toUpperCase()}</span>${caveatSpan(r)}${r.flags.length ? ` <span class="inferred">(${esc(r.flags.join('; '))})</span>` : ''} ${esc(r.reason)}</p>`);
    o.push(`<p class="muted">Reply at the end: <span class="mono">${esc(`${rf.proto.toUpperCase()} ${rf.srcIp}${rf.srcPort !== undefined ? `:${rf.srcPort}` : ''} → ${rf.dstIp}${rf.dstPort !== undefined ? `:${rf.dstPort}` : ''}`)}</span></p>`);
    o.push(...caveatList(r.caveats));
    if (r.findings.length) o.push(`<ul class="walk-findings">${r.findings.map((f) => `<li>${f.hop !== undefined ? `reply hop ${f.hop + 1}: ` : ''}${findingLine(f)}</li>`).join('')}</ul>`);
  }
  o.push('</section>');
  return o.join('\n');
}

function caveatList(cs: ReportTrace['caveats']): string[] {
  if (!cs.length) return [];
  return [`<ul class="caveats">${cs.map((c) => `<li><span class="inferred">${esc(c.kind)}</span> ${esc(c.text)}${c.source ? ` <span class="muted">(${esc(c.source)})</span>` : ''}</li>`).join('')}</ul>`];
}

/** ", but <text>" beside a verdict badge when a finding of the path qualifies it. */
function caveatSpan(t: Pick<ReportTrace, 'verdict' | 'verdictCaveat'>): string {
  return t.verdictCaveat ? ` <span class="caveat sev-${t.verdictCaveat.severity}">${esc(caveatClause(t))}</span>` : '';
}

function findingLine(f: WalkFinding): string {
  return `<span class="badge ${f.severity}">${f.severity}</span> <b>${esc(f.title)}</b> — ${esc(f.why)}`;
}

/** Findings of the path that concern no hop of the table: listed under the verdict. */
function looseFindings(fs: WalkFinding[], hops: number): string[] {
  const loose = fs.filter((f) => f.hop === undefined || f.hop >= hops);
  return loose.length ? [`<ul class="walk-findings">${loose.map((f) => `<li>${findingLine(f)}</li>`).join('')}</ul>`] : [];
}
