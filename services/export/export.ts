// Builds and writes a report: the pure document and renderers from analysis/report, the file written
// atomically, PDF printed from the HTML by whoever can (headless Chromium here, printToPDF in Electron).
import path from 'node:path';
import type { NodeModel } from '../../parsers/model/types.ts';
import { buildReport, renderClusterReport, renderReport, type ClusterReportDocument, type PageSize, type ReportFormat, type ReportOptions } from '../../analysis/report/index.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { htmlToPdf } from './pdf.ts';

export type PdfRenderer = (html: string) => Promise<Uint8Array>;

export interface ExportOptions extends ReportOptions {
  format: ReportFormat;
  /** Written atomically when given; a PDF without it is returned as bytes (a download). */
  outPath?: string;
  renderPdf?: PdfRenderer;
  /** The paper of a PDF (and of an HTML report printed from a browser); A4 unless given. */
  page?: PageSize;
}

export interface ExportResult {
  /** The text (html, md, json); absent for PDF. */
  content?: string;
  /** The PDF, when it was not written to outPath. */
  pdf?: Uint8Array;
  path?: string;
  bytes: number;
}

const EXT: Record<ReportFormat, string[]> = { html: ['.html', '.htm'], md: ['.md', '.markdown'], json: ['.json'], pdf: ['.pdf'] };

/** The format an output file name asks for, or undefined. */
export function formatFromPath(p: string): ReportFormat | undefined {
  const ext = path.extname(p).toLowerCase();
  return (Object.keys(EXT) as ReportFormat[]).find((f) => EXT[f].includes(ext));
}

/** The HTML the PDF is printed from (the Electron shell prints it with webContents.printToPDF). */
export function reportHtml(model: NodeModel, opts: ReportOptions = {}): string {
  return renderReport(buildReport(model, opts), 'html');
}

export async function exportReport(model: NodeModel, opts: ExportOptions): Promise<ExportResult> {
  const doc = buildReport(model, opts);
  if (opts.format === 'pdf') {
    const pdf = await (opts.renderPdf ?? htmlToPdf)(renderReport(doc, 'html', { page: opts.page }));
    if (!opts.outPath) return { pdf, bytes: pdf.byteLength };
    await writeFileAtomic(opts.outPath, pdf);
    return { path: opts.outPath, bytes: pdf.byteLength };
  }
  const content = renderReport(doc, opts.format, { page: opts.page });
  if (opts.outPath) await writeFileAtomic(opts.outPath, content);
  return { content, bytes: Buffer.byteLength(content), ...(opts.outPath ? { path: opts.outPath } : {}) };
}

/** Writes a cluster report (analysis/report/cluster-build.ts) in a format; PDF printed from its HTML. */
export async function exportClusterReport(doc: ClusterReportDocument, format: ReportFormat, outPath: string, renderPdf: PdfRenderer = htmlToPdf): Promise<Required<Pick<ExportResult, 'path' | 'bytes'>>> {
  if (format === 'pdf') {
    const pdf = await renderPdf(renderClusterReport(doc, 'html'));
    await writeFileAtomic(outPath, pdf);
    return { path: outPath, bytes: pdf.byteLength };
  }
  const content = renderClusterReport(doc, format);
  await writeFileAtomic(outPath, content);
  return { path: outPath, bytes: Buffer.byteLength(content) };
}
