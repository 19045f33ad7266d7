// The report's "Services on this node" section: each Service port of the kubectl snapshot and whether
// this node realises it (analysis/checks/service-states.ts). Realised ports are counted, the others
// listed with what was found and the first line that shows it.
import type { ReportDocument } from './types.ts';
import { xml as esc } from './svg.ts';
import { cell } from './markdown-text.ts';

function split(doc: ReportDocument) {
  const rows = doc.services ?? [];
  return { rows, bad: rows.filter((r) => r.state !== 'realised'), ok: rows.filter((r) => r.state === 'realised').length };
}

export function servicesMarkdown(doc: ReportDocument): string[] {
  const { rows, bad, ok } = split(doc);
  if (!rows.length) return [];
  const o = ['## Services on this node', '', `${ok} of ${rows.length} Service port(s) of the kubectl snapshot are realised on this node.`, ''];
  if (bad.length) {
    o.push('| Service | port | state | what was found | evidence |', '|---|---|---|---|---|');
    for (const r of bad) o.push(`| ${cell(`${r.namespace}/${r.name}`)} | ${cell(`${r.where}/${r.proto}`)} | ${cell(r.state)} | ${cell(r.detail)} | ${r.evidence.map((e) => cell(`${e.file}${e.line ? `:${e.line}` : ''}`)).join('<br>')} |`);
    o.push('');
  }
  return o;
}

export function servicesHtml(doc: ReportDocument): string[] {
  const { rows, bad, ok } = split(doc);
  if (!rows.length) return [];
  const o = ['<h2 id="services">Services on this node</h2>', `<p>${ok} of ${rows.length} Service port(s) of the kubectl snapshot are realised on this node.</p>`];
  if (bad.length) {
    o.push('<table class="services"><thead><tr><th>Service</th><th>port</th><th>state</th><th>what was found</th><th>evidence</th></tr></thead><tbody>');
    for (const r of bad) o.push(`<tr><td>${esc(`${r.namespace}/${r.name}`)}</td><td>${esc(`${r.where}/${r.proto}`)}</td><td>${esc(r.state)}</td><td>${esc(r.detail)}</td><td>${r.evidence.map((e) => `<code>${esc(`${e.file}${e.line ? `:${e.line}` : ''}`)}</code>`).join('<br>')}</td></tr>`);
    o.push('</tbody></table>');
  }
  return o;
}
