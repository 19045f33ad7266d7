// The report's "Services on this node" section: each Service port of the kubectl snapshot and whether
// this node realises it — inspect's rows (analysis/checks/service-states.ts) with the Services table's
// columns (analysis/view-models/services-table.ts), in the table's default order: what is not realised
// first. Every row that is not realised is listed; realised ones up to REALISED_LISTED (a node with
// 2,000 Services would otherwise print them over dozens of pages), the rest counted.
import type { NodeModel } from '../../parsers/model/types.ts';
import type { ServiceRow } from '../checks/service-states.ts';
import { servicesTable } from '../view-models/services-table.ts';
import { backendsCell, DEFAULT_SORT, policyCell, sortRows } from '../view-models/services-table-view.ts';
import type { ReportDocument, ReportServiceRow } from './types.ts';
import { xml as esc } from './svg.ts';
import { cell } from './markdown-text.ts';
import { plural } from '../../parsers/text/quantities.ts';

export const REALISED_LISTED = 50;

/** The report's rows: the table's, sorted as the table first shows them. */
export function reportServices(m: NodeModel, rows: ServiceRow[]): ReportServiceRow[] {
  return sortRows(servicesTable(m, rows).rows, DEFAULT_SORT).map((r) => ({
    namespace: r.namespace,
    name: r.name,
    where: r.where,
    proto: r.proto,
    state: r.state,
    detail: r.detail,
    evidence: r.evidence.map((e) => ({ file: e.file, line: e.line })),
    type: r.type,
    vip: r.vip,
    ready: r.ready,
    hnsBackends: r.hnsBackends,
    externalTrafficPolicy: r.externalTrafficPolicy,
    internalTrafficPolicy: r.internalTrafficPolicy,
    stateText: r.stateText,
    tone: r.tone,
  }));
}

function split(doc: ReportDocument) {
  const rows = doc.services ?? [];
  const realised = rows.filter((r) => r.state === 'realised');
  const listedRealised = realised.slice(0, REALISED_LISTED);
  const listed = [...rows.filter((r) => r.state !== 'realised'), ...listedRealised];
  return { rows, listed, ok: realised.length, notRealised: rows.filter((r) => (r.tone ? r.tone === 'bad' : r.state !== 'realised')).length, unlisted: realised.length - listedRealised.length };
}

const HEAD = ['Service', 'port', 'type', 'VIP', 'ready / HNS', 'eTP / iTP', 'state', 'what was found', 'evidence'];

function cells(r: ReportServiceRow): string[] {
  const known = r.type !== undefined;
  return [
    `${r.namespace}/${r.name}`,
    `${r.where.startsWith('NodePort ') ? `node ${r.where.slice(9)}` : r.where.slice(r.where.lastIndexOf(':') + 1)}/${r.proto}`,
    known ? r.type! : '',
    r.vip || (r.where.startsWith('NodePort ') ? 'node address' : r.where.slice(0, r.where.lastIndexOf(':'))),
    known ? backendsCell({ ready: r.ready ?? 0, hnsBackends: r.hnsBackends ?? null }) : '',
    known ? policyCell({ type: r.type!, externalTrafficPolicy: r.externalTrafficPolicy, internalTrafficPolicy: r.internalTrafficPolicy }) : '',
    r.stateText ?? r.state,
    r.detail,
  ];
}

const summary = (s: ReturnType<typeof split>) =>
  `${s.ok} of ${plural(s.rows.length, 'Service port')} of the kubectl snapshot ${s.ok === 1 ? 'is' : 'are'} realised on this node${s.notRealised ? `; ${s.notRealised} not realised (listed first)` : ''}.`;
const more = (n: number) => `${plural(n, 'more realised Service port', 'more realised Service ports')} ${n === 1 ? 'is' : 'are'} not listed; \`hnsight inspect --json\` lists every one (\`services\`).`;

export function servicesMarkdown(doc: ReportDocument): string[] {
  const s = split(doc);
  // Over the analysis budget: said, never an absent section (it would read as "no Service").
  if (!s.rows.length && doc.servicesNotEvaluated) return ['## Services on this node', '', doc.servicesNotEvaluated, ''];
  if (!s.rows.length) return [];
  const o = ['## Services on this node', '', summary(s), ''];
  o.push(`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`);
  for (const r of s.listed) o.push(`| ${cells(r).map(cell).join(' | ')} | ${r.evidence.map((e) => cell(`${e.file}${e.line ? `:${e.line}` : ''}`)).join('<br>')} |`);
  o.push('');
  if (s.unlisted) o.push(more(s.unlisted), '');
  return o;
}

export function servicesHtml(doc: ReportDocument): string[] {
  const s = split(doc);
  if (!s.rows.length && doc.servicesNotEvaluated) return ['<h2 id="services">Services on this node</h2>', `<p class="svc-unknown">${esc(doc.servicesNotEvaluated)}</p>`];
  if (!s.rows.length) return [];
  const o = ['<h2 id="services">Services on this node</h2>', `<p>${esc(summary(s))}</p>`];
  o.push(`<table class="services"><thead><tr>${HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>`);
  for (const r of s.listed) {
    o.push(`<tr class="svc-${r.tone ?? (r.state === 'realised' ? 'ok' : 'bad')}">${cells(r).map((c) => `<td>${esc(c)}</td>`).join('')}<td>${r.evidence.map((e) => `<code>${esc(`${e.file}${e.line ? `:${e.line}` : ''}`)}</code>`).join('<br>')}</td></tr>`);
  }
  o.push('</tbody></table>');
  if (s.unlisted) o.push(`<p>${esc(more(s.unlisted).replace(/`/g, ''))}</p>`);
  return o;
}
