// The cluster report as Markdown and as one self-contained HTML file (the single-node report's
// style sheet; no script, no external request). Each walk is one table whose rows are grouped under
// the node they happened on, with the hand-over between nodes as a row of its own.
import type { ClusterReportDocument, ClusterReportFinding, ClusterReportHop, ClusterReportWalk } from './cluster-build.ts';
import type { ReportEvidence } from './types.ts';
import { prose, REPORT_CSS } from './html.ts';
import { pageCss } from './report-css.ts';
import { xml as esc } from './svg.ts';
import { ICON } from './markdown.ts';
import { cell, code, fence, para } from './markdown-text.ts';
import { caveatClause, matchedText } from '../walk/format.ts';
import { redactionHtml, redactionMarkdown } from './redaction-text.ts';
import type { StitchedFinding } from '../cluster/index.ts';
import { sourceRef } from './where.ts';

type AnyWalk = Omit<ClusterReportWalk, 'title' | 'reply'> & { reply?: Omit<ClusterReportWalk, 'title' | 'reply'> };

const tuple = (f: { proto: string; srcIp: string; srcPort?: number; dstIp: string; dstPort?: number }) =>
  `${f.proto.toUpperCase()} ${f.srcIp}${f.srcPort !== undefined ? `:${f.srcPort}` : ''} → ${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}`;

/** The hop as numbered in `hnsight trace A B`: hand-overs are not counted. */
function numbers(hops: ClusterReportHop[]): (number | undefined)[] {
  let n = 0;
  return hops.map((h) => (h.kind === 'handover' ? undefined : ++n));
}

/** `file:line`; a check that points at a file where something is missing gives no line (0). */
const lineRef = (e: { file: string; line: number }) => (e.line > 0 ? `${e.file}:${e.line}` : `${e.file} (nothing there)`);

function findingText(f: StitchedFinding): string {
  return `${f.severity}${f.acrossNodes ? ' (across nodes)' : ''} on ${f.node}: ${f.title} — ${f.why}`;
}

// ---- Markdown ---------------------------------------------------------------------------------

export function renderClusterMarkdown(doc: ClusterReportDocument): string {
  const o: string[] = [];
  o.push(`# ${para(doc.title)}`);
  o.push('');
  o.push(`${doc.location ? `${code(doc.location)} · ` : ''}${doc.generatedAt ? `generated ${doc.generatedAt} · ` : ''}by ${doc.generator}${doc.redacted ? ' · **redacted**' : ''}`);
  o.push('');
  o.push(...redactionMarkdown(doc.redaction));
  o.push('## Nodes');
  o.push('');
  o.push('| node | address | provider address | platform | Windows build | errors | warnings | bundle |');
  o.push('|---|---|---|---|---|---|---|---|');
  for (const n of doc.nodes) o.push(`| ${cell(n.id)} | ${cell(n.nodeIp ?? '')} | ${cell(n.providerAddress ?? '')} | ${cell(n.platform)} | ${cell(n.windowsBuild ?? '')} | ${n.errors} | ${n.warnings} | ${cell(n.bundle)} |`);
  o.push('');
  if (doc.unresolved.length) {
    o.push(`${doc.unresolved.length} thing${doc.unresolved.length === 1 ? '' : 's'} the nodes believe that no open bundle confirms:`);
    o.push('');
    for (const u of doc.unresolved.slice(0, 50)) o.push(`- ${para(`${u.from}: ${u.what}${u.note ? ` (${u.note})` : ''}`)}`);
    if (doc.unresolved.length > 50) o.push(`- … and ${doc.unresolved.length - 50} more`);
    o.push('');
  }
  o.push('## Findings across nodes');
  o.push('');
  if (!doc.findings.length) o.push('No errors or warnings across nodes.');
  for (const f of doc.findings) o.push(...mdFinding(f));
  o.push('');
  o.push('## Walks across nodes');
  o.push('');
  if (!doc.walks.length) o.push('No walk was chosen.');
  doc.walks.forEach((w, i) => o.push(...mdWalk(w, `${i + 1}. ${w.title}`)));
  return o.join('\n') + '\n';
}

function mdFinding(f: ClusterReportFinding): string[] {
  const o: string[] = [];
  o.push(`### ${ICON[f.severity] ?? ''} ${para(f.title)}`);
  o.push('');
  o.push(`**Odd node${f.nodes.odd.length === 1 ? '' : 's'}:** ${para(f.nodes.odd.join(', ') || '(none)')} · **agreeing:** ${para(f.nodes.majority.join(', ') || '(none)')}${f.nodes.majorityValue ? ` (${para(f.nodes.majorityValue)})` : ''} · ${f.nodes.total} nodes compared`);
  o.push('');
  o.push(para(f.explanation));
  o.push('');
  o.push(`**Fix:** ${para(f.fix)}`);
  o.push('');
  for (const e of f.evidence) o.push(...mdEvidence(e));
  o.push(`<sub>${para(f.id)}${f.undecided ? ' · could not fully decide' : ''}</sub>`);
  o.push('');
  return o;
}

function mdEvidence(e: ReportEvidence & { node?: string }): string[] {
  const where = `${e.node ? `${e.node}: ` : ''}${lineRef(e)}`;
  return e.lines.length ? [`${code(where)}`, '', fence(e.lines), ''] : [`${code(where)}`, ''];
}

function mdWalk(w: AnyWalk, heading: string, level = '###'): string[] {
  const o: string[] = [];
  o.push(`${level} ${para(heading)}`);
  o.push('');
  o.push(`${ICON[w.verdict] ?? ''} **${w.verdict.toUpperCase()}**${w.verdictCaveat ? `, **${para(caveatClause(w))}**` : ''}${w.flags.length ? ` (${para(w.flags.join('; '))})` : ''} — ${para(w.reason)}`);
  o.push('');
  o.push(`Nodes: ${para(w.nodes.join(' → ') || '(none)')} · packet at the end: ${code(tuple(w.final))}`);
  o.push('');
  for (const c of w.caveats) o.push(`- _${para(c.kind)}${c.node ? `, ${para(c.node)}` : ''}_: ${para(c.text)}${c.source ? ` (${para(c.source)})` : ''}`);
  if (w.caveats.length) o.push('');
  const nums = numbers(w.hops);
  let leg = -1;
  for (const [i, h] of w.hops.entries()) {
    if (h.kind !== 'handover' && h.leg !== leg) {
      leg = h.leg;
      o.push('');
      o.push(`**on ${para(h.node)}** (${code(h.bundle)})`);
      o.push('');
      o.push('| # | where | layer / group / rule | matched because | action | rewrite | evidence |');
      o.push('|---|---|---|---|---|---|---|');
    }
    if (h.kind === 'handover') {
      o.push('');
      o.push(`⇒ **${para(h.action)}**: ${para(h.at)}${h.inferred ? ' _(inferred)_' : ''} — ${para(h.note ?? '')}`);
      for (const f of w.findings.filter((x) => x.hop === i)) o.push(`- ${para(findingText(f))}`);
      continue;
    }
    const rule = [h.layer, h.group, h.rule].filter(Boolean).join(' / ');
    const action = `${h.action}${h.flags.length ? ` (${h.flags.join(', ')})` : ''}${h.note ? ` — ${h.note}` : ''}`;
    o.push(`| ${nums[i]}${h.deciding ? ' ★' : ''} | ${cell(h.at)} | ${cell(rule)} | ${cell(matchedText(h) ?? '')} | ${cell(action)} | ${cell(h.rewrite)} | ${h.evidence ? cell(sourceRef(h.evidence.file, h.evidence.line)) : ''} |`);
    for (const f of w.findings.filter((x) => x.hop === i)) o.push(`| | ${cell(`${ICON[f.severity] ?? ''} ${findingText(f)}`)} | | | | | |`);
  }
  o.push('');
  const loose = w.findings.filter((f) => f.hop === undefined || !w.hops[f.hop]);
  for (const f of loose) o.push(`- ${para(findingText(f))}`);
  if (w.reply) o.push(...mdWalk(w.reply, `Reply ${tuple(w.reply.flow)}`, '####'));
  return o;
}

// ---- HTML -------------------------------------------------------------------------------------

const CLUSTER_CSS = `
tr.leg-head td { background: #e8f0fe; font-weight: 600; }
tr.handover td { background: #f3e8fd; font-style: italic; }
.odd { color: #c5221f; font-weight: 600; }
`;

export function renderClusterHtml(doc: ClusterReportDocument): string {
  const o: string[] = [];
  o.push('<!DOCTYPE html>');
  o.push('<html lang="en"><head><meta charset="utf-8">');
  o.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  o.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  o.push(`<meta name="generator" content="${esc(doc.generator)}">`);
  o.push(`<title>${esc(doc.title)}</title><style>${REPORT_CSS}${pageCss('a4', doc.title)}${CLUSTER_CSS}</style></head><body><main>`);
  o.push(`<h1>${esc(doc.title)}</h1>`);
  o.push(`<p class="meta">${[doc.location && esc(doc.location), doc.generatedAt && `generated ${esc(doc.generatedAt)}`, `by ${esc(doc.generator)}`].filter(Boolean).join(' · ')}${doc.redacted ? ' <span class="badge redacted">redacted</span>' : ''}</p>`);
  if (doc.redaction) o.push(redactionHtml(doc.redaction));
  o.push('<h2 id="nodes">Nodes</h2>');
  o.push('<table><thead><tr><th>node</th><th>address</th><th>provider address</th><th>platform</th><th>Windows build</th><th>errors</th><th>warnings</th><th>bundle</th></tr></thead><tbody>');
  const odd = new Set(doc.findings.flatMap((f) => f.nodes.odd));
  for (const n of doc.nodes) o.push(`<tr><td${odd.has(n.id) ? ' class="odd"' : ''}>${esc(n.id)}</td><td class="mono">${esc(n.nodeIp ?? '')}</td><td class="mono">${esc(n.providerAddress ?? '')}</td><td>${esc(n.platform)}</td><td class="mono">${esc(n.windowsBuild ?? '')}</td><td>${n.errors}</td><td>${n.warnings}</td><td class="mono">${esc(n.bundle)}</td></tr>`);
  o.push('</tbody></table>');
  if (doc.unresolved.length) {
    o.push(`<details><summary>${doc.unresolved.length} thing${doc.unresolved.length === 1 ? '' : 's'} the nodes believe that no open bundle confirms</summary><ul>`);
    for (const u of doc.unresolved.slice(0, 200)) o.push(`<li>${esc(`${u.from}: ${u.what}${u.note ? ` (${u.note})` : ''}`)}</li>`);
    o.push('</ul></details>');
  }
  o.push('<h2 id="findings">Findings across nodes</h2>');
  if (!doc.findings.length) o.push('<p class="muted">No errors or warnings across nodes.</p>');
  for (const f of doc.findings) o.push(htmlFinding(f));
  o.push('<h2 id="walks">Walks across nodes</h2>');
  if (!doc.walks.length) o.push('<p class="muted">No walk was chosen.</p>');
  doc.walks.forEach((w, i) => o.push(`<section class="walk" id="walk-${i + 1}"><h3>${i + 1}. ${esc(w.title)}</h3>${htmlWalk(w)}${w.reply ? `<h4>Reply ${esc(tuple(w.reply.flow))}</h4>${htmlWalk(w.reply)}` : ''}</section>`));
  o.push(`<footer>Made by ${esc(doc.generator)} from each node's own bundle; every hop names the node and the file and line it comes from. Steps marked <span class="inferred">inferred</span> are the walk's assumptions, not facts printed in a bundle.</footer>`);
  o.push('</main></body></html>');
  return o.join('\n') + '\n';
}

function htmlFinding(f: ClusterReportFinding): string {
  const o: string[] = [];
  o.push(`<section class="finding sev-${f.severity}">`);
  o.push(`<h3><span class="badge ${f.severity}">${f.severity}</span> ${esc(f.title)}</h3>`);
  o.push(`<p><b>Odd node${f.nodes.odd.length === 1 ? '' : 's'}:</b> <span class="odd">${esc(f.nodes.odd.join(', ') || '(none)')}</span> · <b>agreeing:</b> ${esc(f.nodes.majority.join(', ') || '(none)')}${f.nodes.majorityValue ? ` (${esc(f.nodes.majorityValue)})` : ''} · ${f.nodes.total} nodes compared</p>`);
  o.push(`<p>${prose(f.explanation)}</p>`);
  o.push(`<p class="fix"><b>Fix:</b> ${prose(f.fix)}</p>`);
  for (const e of f.evidence) o.push(`<div class="mono muted">${esc(`${e.node}: ${lineRef(e)}`)}</div>${e.lines.length ? `<pre>${esc(e.lines.join('\n'))}</pre>` : ''}`);
  o.push(`<p class="muted mono" style="font-size:11px">${esc(f.id)}${f.undecided ? ' · could not fully decide (see explanation)' : ''}</p>`);
  o.push('</section>');
  return o.join('\n');
}

function htmlWalk(w: AnyWalk): string {
  const o: string[] = [];
  const caveat = w.verdictCaveat ? ` <span class="caveat sev-${w.verdictCaveat.severity}">${esc(caveatClause(w))}</span>` : '';
  o.push(`<p class="verdict"><span class="badge ${w.verdict}">${w.verdict.toUpperCase()}</span>${caveat}${w.flags.length ? ` <span class="inferred">(${esc(w.flags.join('; '))})</span>` : ''} ${esc(w.reason)}</p>`);
  o.push(`<p class="muted">Nodes: <b>${esc(w.nodes.join(' → ') || '(none)')}</b> · packet at the end: <span class="mono">${esc(tuple(w.final))}</span></p>`);
  if (w.caveats.length) o.push(`<ul class="caveats">${w.caveats.map((c) => `<li><span class="inferred">${esc(c.kind)}${c.node ? `, ${esc(c.node)}` : ''}</span> ${esc(c.text)}${c.source ? ` <span class="muted">(${esc(c.source)})</span>` : ''}</li>`).join('')}</ul>`);
  o.push('<table class="hops"><colgroup><col style="width:4%"><col style="width:15%"><col style="width:20%"><col style="width:16%"><col style="width:18%"><col style="width:12%"><col style="width:15%"></colgroup>');
  o.push('<thead><tr><th>#</th><th>where</th><th>layer / group / rule</th><th>matched because</th><th>action</th><th>rewrite</th><th>evidence</th></tr></thead><tbody>');
  const nums = numbers(w.hops);
  let leg = -1;
  w.hops.forEach((h, i) => {
    if (h.kind !== 'handover' && h.leg !== leg) {
      leg = h.leg;
      o.push(`<tr class="leg-head" data-node="${esc(h.node)}"><td colspan="7">on ${esc(h.node)} <span class="muted mono">${esc(h.bundle)}</span></td></tr>`);
    }
    const rows = w.findings.filter((x) => x.hop === i).map((f) => `<tr class="finding-row sev-${f.severity}"><td></td><td colspan="6"><span class="badge ${f.severity}">${f.severity}</span> ${esc(findingText(f))}</td></tr>`);
    if (h.kind === 'handover') {
      o.push(`<tr class="handover${h.deciding ? ' deciding' : ''}"><td>⇒${h.deciding ? ' ★' : ''}</td><td>${esc(h.at)}</td><td colspan="3">${esc(h.action)}${h.inferred ? ' <span class="inferred">(inferred)</span>' : ''}<br><span class="muted">${esc(h.note ?? '')}</span></td><td></td><td class="mono">${h.evidence ? esc(`${h.node}: ${sourceRef(h.evidence.file, h.evidence.line)}`) : ''}</td></tr>`);
      o.push(...rows);
      return;
    }
    const rule = [h.layer, h.group, h.rule].filter(Boolean).join(' / ');
    const action = `${esc(h.action)}${h.flags.length ? ` <span class="inferred">(${esc(h.flags.join(', '))})</span>` : ''}${h.note ? `<br><span class="muted">${esc(h.note)}</span>` : ''}`;
    const ev = h.evidence ? `<div class="mono muted">${esc(sourceRef(h.evidence.file, h.evidence.line))}</div>${h.deciding && h.evidence.lines.length ? `<pre>${esc(h.evidence.lines.join('\n'))}</pre>` : ''}` : '';
    o.push(`<tr${h.deciding ? ' class="deciding"' : ''}><td>${nums[i]}${h.deciding ? ' ★' : ''}</td><td>${esc(h.at)}</td><td class="mono">${esc(rule)}</td><td class="matched mono">${esc(matchedText(h) ?? '')}</td><td>${action}</td><td class="mono">${esc(h.rewrite)}</td><td>${ev}</td></tr>`);
    o.push(...rows);
  });
  o.push('</tbody></table>');
  const loose = w.findings.filter((f) => f.hop === undefined || !w.hops[f.hop]);
  if (loose.length) o.push(`<ul class="walk-findings">${loose.map((f) => `<li>${esc(findingText(f))}</li>`).join('')}</ul>`);
  return o.join('\n');
}

export function renderClusterReport(doc: ClusterReportDocument, format: 'html' | 'md' | 'json'): string {
  if (format === 'html') return renderClusterHtml(doc);
  if (format === 'md') return renderClusterMarkdown(doc);
  return JSON.stringify(doc, null, 2) + '\n';
}
