// Reports: the document (build.ts) and its renderings. JSON is the document itself.
import type { ReportDocument } from './types.ts';
import { renderHtml, type HtmlOptions } from './html.ts';
import { renderMarkdown } from './markdown.ts';

export { buildReport, redactReport, traceTitle, type ReportOptions } from './build.ts';
export { renderHtml, type HtmlOptions } from './html.ts';
export { PAGE_SIZES, pageSizeForLocale, type PageSize } from './report-css.ts';
export { renderMarkdown } from './markdown.ts';
export { topologySvg, pathSvg, chainSteps } from './svg.ts';
export { emptyNotes, parseTraceRef, traceRef, type Note, type Notes, type NoteTarget, type NoteTargetKind } from './notes.ts';
export * from './types.ts';

export type ReportFormat = 'html' | 'md' | 'json' | 'pdf';

/** The text of a report in a text format; PDF is printed from the HTML by the shell. */
export function renderReport(doc: ReportDocument, format: Exclude<ReportFormat, 'pdf'>, opts: HtmlOptions = {}): string {
  if (format === 'html') return renderHtml(doc, opts);
  if (format === 'md') return renderMarkdown(doc);
  return JSON.stringify(doc, null, 2) + '\n';
}
export { buildClusterReport, CLUSTER_REPORT_SCHEMA, type ClusterReportDocument, type ClusterReportOptions, type ClusterReportWalk, type ClusterReportHop, type ClusterReportFinding } from './cluster-build.ts';
export { renderClusterReport, renderClusterHtml, renderClusterMarkdown } from './cluster-render.ts';
