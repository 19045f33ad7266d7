// The report as one self-contained HTML file: inline CSS and inline SVG pictures, no script, no
// external request (a CSP meta tag forbids them), readable on screen and when printed (PDF).
import type { ReportDocument, ReportEvidence, ReportFinding, ReportHop, ReportNote, ReportTrace } from './types.ts';
import { xml as esc } from './svg.ts';
import { codeParts } from './code-spans.ts';
import { sourceRef } from './where.ts';
import { caveatClause, matchedText } from '../walk/format.ts';
import type { WalkFinding } from '../walk/types.ts';

export const REPORT_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font: 14px/1.45 "Segoe UI", Helvetica, Arial, sans-serif; color: #202124; background: #fff; margin: 0; }
main { max-width: 1280px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 32px 0 10px; padding-bottom: 4px; border-bottom: 2px solid #e8eaed; }
h3 { font-size: 16px; margin: 22px 0 8px; }
.meta { color: #5f6368; margin: 0 0 16px; }
.summary { white-space: pre-wrap; background: #f8f9fa; border-left: 4px solid #1a73e8; padding: 10px 14px; margin: 12px 0; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 12px; font-size: 13px; }
th, td { border: 1px solid #dadce0; padding: 4px 7px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
table.hops { table-layout: fixed; }
table.hops pre { font-size: 11px; }
th { background: #f1f3f4; font-weight: 600; }
table.facts { width: auto; min-width: 50%; }
table.facts th { width: 180px; }
code, pre, .mono { font-family: Consolas, Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; }
td.mono { word-break: break-all; }
pre { background: #f8f9fa; border: 1px solid #e8eaed; padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; word-break: break-all; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; vertical-align: 1px; }
.error { background: #d93025; } .warning { background: #e37400; } .info { background: #5f6368; }
.delivered { background: #188038; } .forwarded { background: #1a73e8; } .dropped { background: #d93025; } .unknown { background: #e37400; }
.redacted { background: #5f6368; }
.finding { border: 1px solid #dadce0; border-left: 5px solid #e37400; border-radius: 4px; padding: 8px 14px; margin: 12px 0; break-inside: avoid; }
.finding.sev-error { border-left-color: #d93025; }
.finding h3 { margin: 4px 0 6px; }
.fix { background: #e6f4ea; padding: 6px 10px; border-radius: 4px; }
p code { background: rgba(0, 0, 0, 0.06); padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
.note { background: #fff8e1; border: 1px solid #f9d56e; border-radius: 4px; padding: 6px 10px; margin: 6px 0; white-space: pre-wrap; }
.note .on { display: block; font-size: 11px; color: #5f6368; white-space: normal; }
tr.deciding td { background: #fef7e0; }
tr.note-row td { background: #fffdf5; border-top: none; }
tr.finding-row td { background: #fdecea; border-top: none; }
tr.finding-row.sev-warning td { background: #fef3e0; }
tr.finding-row.sev-info td { background: #f1f3f4; }
.caveat { font-weight: 600; }
.caveat.sev-error { color: #c5221f; } .caveat.sev-warning { color: #b06000; }
.matched { font-size: 12px; }
.inferred { color: #b06000; font-style: italic; }
.figure { margin: 8px 0; }
.figure svg { display: block; max-width: 100%; height: auto; }
.walk { break-before: auto; }
.verdict { font-size: 15px; margin: 6px 0 10px; }
.muted { color: #5f6368; }
details summary { cursor: pointer; }
footer { margin-top: 40px; color: #5f6368; font-size: 12px; border-top: 1px solid #e8eaed; padding-top: 8px; }
@page { size: A4; margin: 12mm; }
@media print {
  main { max-width: none; padding: 0; }
  body { font-size: 11.5px; }
  table { font-size: 10.5px; }
  h2 { break-after: avoid; }
  tr, .note, pre { break-inside: avoid; }
  .figure { overflow: visible; }
  .figure svg { max-width: 100%; height: auto; }
  details > summary { list-style: none; }
}
`;

export function renderHtml(doc: ReportDocument): string {
  const o: string[] = [];
  o.push('<!DOCTYPE html>');
  o.push('<html lang="en"><head><meta charset="utf-8">');
  o.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  o.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  o.push(`<meta name="generator" content="${esc(doc.generator)}">`);
  o.push(`<title>${esc(doc.title)}</title><style>${REPORT_CSS}</style></head><body><main>`);
  o.push(`<h1>${esc(doc.title)}</h1>`);
  const meta = [doc.node.hostName ? `node <b>${esc(doc.node.hostName)}</b>` : 'node (host name not in the bundle)', esc(doc.node.location), doc.generatedAt ? `generated ${esc(doc.generatedAt)}` : '', `by ${esc(doc.generator)}`].filter(Boolean);
  o.push(`<p class="meta">${meta.join(' · ')}${doc.redacted ? ' <span class="badge redacted">redacted</span>' : ''}</p>`);
  if (doc.summary.trim()) o.push(`<div class="summary">${esc(doc.summary.trim())}</div>`);
  for (const n of doc.notes.filter((x) => x.target.kind === 'report')) o.push(note(n));
  o.push(atAGlance(doc));

  o.push('<h2 id="findings">Findings</h2>');
  if (!doc.findings.length) o.push(`<p class="muted">No errors or warnings.${doc.infoFindingsOmitted ? ` ${doc.infoFindingsOmitted} informational finding(s) not shown.` : ''}</p>`);
  for (const f of doc.findings) o.push(finding(f));
  if (doc.findings.length && doc.infoFindingsOmitted) o.push(`<p class="muted">${doc.infoFindingsOmitted} informational finding(s) not shown.</p>`);

  o.push('<h2 id="walks">Packet walks</h2>');
  if (!doc.traces.length) o.push('<p class="muted">No walk was chosen.</p>');
  doc.traces.forEach((t, i) => o.push(walk(t, i)));

  const other = doc.notes.filter((x) => x.target.kind !== 'report');
  if (other.length) {
    o.push('<h2 id="notes">Other notes</h2>');
    for (const n of other) o.push(note(n));
  }

  o.push('<h2 id="topology">Node topology</h2>');
  o.push(`<p class="muted">${doc.topology.summarised ? `Only ${doc.topology.shown} of ${doc.topology.nodes} objects are drawn: the walks' paths, their neighbours and the node's skeleton.` : `${doc.topology.nodes} objects.`} Coloured lines: the walks above.</p>`);
  o.push(`<div class="figure">${doc.topology.svg}</div>`);

  o.push(nodeFacts(doc));
  o.push(`<footer>Made by ${esc(doc.generator)} from the bundle's own files; every hop and finding names the file and line it comes from. Steps marked <span class="inferred">inferred</span> are the walk's assumptions, not facts printed in the bundle.</footer>`);
  o.push('</main></body></html>');
  return o.join('\n') + '\n';
}

function atAGlance(doc: ReportDocument): string {
  const errors = doc.findings.filter((f) => f.severity === 'error').length;
  const warnings = doc.findings.filter((f) => f.severity === 'warning').length;
  const rows = doc.traces.map((t, i) => `<tr><td>${i + 1}</td><td><a href="#walk-${i + 1}">${esc(t.title)}</a></td><td><span class="badge ${t.verdict}">${t.verdict}</span>${caveatSpan(t)}</td><td>${esc(t.reason)}</td></tr>`);
  return [
    `<p><span class="badge ${errors ? 'error' : 'info'}">${errors} error${errors === 1 ? '' : 's'}</span> <span class="badge ${warnings ? 'warning' : 'info'}">${warnings} warning${warnings === 1 ? '' : 's'}</span> · ${doc.traces.length} walk${doc.traces.length === 1 ? '' : 's'}</p>`,
    rows.length ? `<table><thead><tr><th>#</th><th>walk</th><th>verdict</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : '',
  ].join('\n');
}

/** `Azure CNI Overlay on AKS (high confidence)`. */
export function platformText(p: ReportDocument['node']['platform']): string {
  return `${p.label}${p.cloud ? ` on ${p.cloud}` : ''} (${p.plugin === 'unknown' ? 'no known plugin named in the bundle' : `${p.confidence} confidence`})`;
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
  o.push(`<section class="finding sev-${f.severity}" id="finding-${esc(f.key.replace(/[^\w-]/g, '-'))}">`);
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
  return `<details><summary class="mono">${esc(where)} — ${esc(e.lines[0].trim())}</summary><pre>${esc(e.lines.join('\n'))}</pre></details>`;
}

function note(n: ReportNote): string {
  return `<div class="note"><span class="on">Note on ${esc(n.on)}</span>${esc(n.text)}</div>`;
}

function ruleCell(h: ReportHop): string {
  if (!h.layer && !h.rule) return '';
  const parts = [h.layer, h.group, h.rule].filter(Boolean).map((s) => esc(s!));
  return `<span class="mono">${parts.join(' / ')}</span>${h.ruleType ? ` <span class="muted">[${esc(h.ruleType)}${h.priority !== undefined ? `, prio ${h.priority}` : ''}]</span>` : ''}`;
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
  o.push('<table class="hops"><colgroup><col style="width:4%"><col style="width:14%"><col style="width:19%"><col style="width:15%"><col style="width:16%"><col style="width:11%"><col style="width:21%"></colgroup>');
  o.push('<thead><tr><th>#</th><th>where</th><th>layer / group / rule</th><th>matched because</th><th>action</th><th>rewrite</th><th>evidence</th></tr></thead><tbody>');
  for (const h of t.hops) {
    const action = `${esc(h.action)}${h.flags.length ? ` <span class="inferred">(${esc(h.flags.join(', '))})</span>` : ''}${h.unmodelled ? `<br><span class="inferred">unmodelled: ${esc(h.unmodelled)}</span>` : ''}${h.note ? `<br><span class="muted">${esc(h.note)}</span>` : ''}${h.alternatives.length ? `<br><span class="muted">other backends: ${esc(h.alternatives.join(', '))}</span>` : ''}`;
    const ev = h.evidence ? evidenceBlock(h.evidence, h.deciding || h.notes.length > 0) : '';
    const why = matchedText(h);
    o.push(`<tr${h.deciding ? ' class="deciding"' : ''}><td>${h.index + 1}${h.deciding ? ' ★' : ''}</td><td>${esc(h.at)}</td><td>${ruleCell(h)}</td><td class="matched mono">${why ? esc(why) : ''}</td><td>${action}</td><td class="mono">${esc(h.rewrite)}</td><td>${ev}</td></tr>`);
    for (const f of t.findings.filter((x) => x.hop === h.index)) o.push(`<tr class="finding-row sev-${f.severity}"><td></td><td colspan="6">${findingLine(f)}</td></tr>`);
    for (const n of h.notes) o.push(`<tr class="note-row"><td></td><td colspan="6">${note(n)}</td></tr>`);
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
