// The Export… dialog's pure helpers: file names, MIME types, which walks are included.
import type { Flow } from '../../../analysis/walk/types.ts';
import { walkRef } from '../notes/model.ts';

export type ExportFormat = 'html' | 'md' | 'json' | 'pdf';

export const FORMATS: { key: ExportFormat; label: string; ext: string; mime: string }[] = [
  { key: 'html', label: 'HTML', ext: 'html', mime: 'text/html;charset=utf-8' },
  { key: 'md', label: 'Markdown', ext: 'md', mime: 'text/markdown;charset=utf-8' },
  { key: 'json', label: 'JSON', ext: 'json', mime: 'application/json;charset=utf-8' },
  { key: 'pdf', label: 'PDF', ext: 'pdf', mime: 'application/pdf' },
];

export function formatInfo(f: ExportFormat) {
  return FORMATS.find((x) => x.key === f)!;
}

/** `hnsight-akswin000000-report.html`: a file name safe on every OS. */
export function reportFileName(hostName: string | undefined, format: ExportFormat, redacted = false): string {
  const host = redacted ? 'node' : (hostName ?? 'node').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'node';
  return `hnsight-${host}-report.${formatInfo(format).ext}`;
}

/** A walk's key in the dialog's include list (dip included: two backends are two walks). */
export function flowKey(f: Flow): string {
  return `${walkRef(f)}${f.srcPort !== undefined ? `<${f.srcPort}` : ''}${f.dip ? `@${f.dip}` : ''}`;
}

/** The walks to export: those in the notes, less the ones unticked. */
export function includedTraces(traces: readonly Flow[], excluded: ReadonlySet<string>): Flow[] {
  return traces.filter((f) => !excluded.has(flowKey(f)));
}
