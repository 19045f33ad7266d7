// The report's style sheet, on screen and on paper. A support engineer attaches the PDF to a ticket,
// so print reads as an incident report: a summary on the first page, the node's name and the page
// number on every page (CSS page-margin boxes, which Chromium prints since 131 and Electron 45's
// Chromium 140 too), evidence in full-width monospace blocks that break at spaces and only as a last
// resort inside a word, badges never split, and the topology on a landscape page of its own.

export type PageSize = 'a4' | 'letter';
export const PAGE_SIZES: readonly PageSize[] = ['a4', 'letter'];

/** Countries whose paper is US Letter (CLDR's paper-size data); everywhere else prints on A4. */
const LETTER_REGIONS = new Set(['US', 'CA', 'MX', 'PH', 'PR', 'CL', 'CO', 'VE', 'GT', 'CR', 'PA', 'DO', 'SV', 'NI', 'BZ']);

/**
 * The paper a locale prints on: `en_US.UTF-8` (LC_PAPER, else LC_ALL, else LANG) or `en-US` → letter;
 * anything else, or no locale, → A4.
 */
export function pageSizeForLocale(locale: string | undefined): PageSize {
  const region = /^[a-z]{2,3}[_-]([A-Z]{2})\b/i.exec(locale ?? '')?.[1]?.toUpperCase();
  return region && LETTER_REGIONS.has(region) ? 'letter' : 'a4';
}

/** A text as a CSS string literal: everything but plain letters and digits escaped (a host name comes from the bundle). */
export function cssString(s: string): string {
  return `"${[...s].map((c) => (/^[A-Za-z0-9 ._-]$/.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join('')}"`;
}

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
th, td { border: 1px solid #dadce0; padding: 4px 7px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
table.hops { table-layout: fixed; }
th { background: #f1f3f4; font-weight: 600; }
table.facts { width: auto; min-width: 50%; }
table.facts th { width: 180px; }
/* Services: a port that is not realised is red, an undecided one amber (services-section.ts). */
table.services { table-layout: fixed; }
table.services th:nth-child(1) { width: 12%; } table.services th:nth-child(2) { width: 9%; } table.services th:nth-child(3) { width: 8%; } table.services th:nth-child(4) { width: 11%; } table.services th:nth-child(5) { width: 5%; } table.services th:nth-child(6) { width: 8%; } table.services th:nth-child(7) { width: 9%; } table.services th:nth-child(9) { width: 13%; }
tr.svc-bad td { background: #fce8e6; } tr.svc-bad td:nth-child(7) { color: #c5221f; font-weight: 600; } tr.svc-unknown td:nth-child(7), tr.svc-warn td:nth-child(7) { color: #b06000; } p.svc-unknown { color: #b06000; }
code, pre, .mono { font-family: Consolas, Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; }
/* Evidence: full lines, broken at spaces; inside a word only when it is wider than the block. */
pre { background: #f8f9fa; border: 1px solid #e8eaed; padding: 6px 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.badge { display: inline-block; white-space: nowrap; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; vertical-align: 1px; }
.error { background: #d93025; } .warning { background: #e37400; } .info { background: #5f6368; }
.delivered { background: #188038; } .forwarded { background: #1a73e8; } .dropped { background: #d93025; } .unknown { background: #e37400; }
.redacted { background: #5f6368; }
.finding { border: 1px solid #dadce0; border-left: 5px solid #e37400; border-radius: 4px; padding: 8px 14px; margin: 12px 0; }
.finding.sev-error { border-left-color: #d93025; }
.finding h3 { margin: 4px 0 6px; }
.fix { background: #e6f4ea; padding: 6px 10px; border-radius: 4px; }
p code { background: rgba(0, 0, 0, 0.06); padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
.note { background: #fff8e1; border: 1px solid #f9d56e; border-radius: 4px; padding: 6px 10px; margin: 6px 0; white-space: pre-wrap; }
.note .on { display: block; font-size: 11px; color: #5f6368; white-space: normal; }
tr.deciding td { background: #fef7e0; }
tr.evidence-row td { border-top: none; padding-top: 0; }
tr.evidence-row.deciding td { background: #fef7e0; }
tr.note-row td { background: #fffdf5; border-top: none; }
tr.finding-row td { background: #fdecea; border-top: none; }
tr.finding-row.sev-warning td { background: #fef3e0; }
tr.finding-row.sev-info td { background: #f1f3f4; }
td.rule { font-family: Consolas, Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; }
.caveat { font-weight: 600; }
.caveat.sev-error { color: #c5221f; } .caveat.sev-warning { color: #b06000; }
.matched { font-size: 12px; }
.inferred { color: #b06000; font-style: italic; }
.figure { margin: 8px 0; }
.figure svg { display: block; max-width: 100%; height: auto; }
.verdict { font-size: 15px; margin: 6px 0 10px; }
.muted { color: #5f6368; }
.glance-findings { margin: 6px 0 12px; padding-left: 0; list-style: none; }
.glance-findings li { margin: 3px 0; }
details summary { cursor: pointer; }
footer { margin-top: 40px; color: #5f6368; font-size: 12px; border-top: 1px solid #e8eaed; padding-top: 8px; }
@media print {
  main { max-width: none; padding: 0; }
  body { font-size: 10.5px; line-height: 1.35; }
  h1 { font-size: 20px; }
  h2 { font-size: 15px; margin: 14px 0 6px; break-after: avoid; }
  h3 { font-size: 12.5px; margin: 10px 0 4px; break-after: avoid; }
  table { font-size: 9.5px; margin: 4px 0 8px; }
  th, td { padding: 2px 4px; }
  code, pre, .mono, td.rule { font-size: 9px; }
  .matched { font-size: 9.5px; }
  .badge { font-size: 9.5px; padding: 0 6px; }
  .verdict { font-size: 11.5px; margin: 4px 0 6px; }
  pre { padding: 3px 5px; margin: 2px 0; }
  .finding { padding: 4px 10px; margin: 6px 0; }
  .finding p { margin: 3px 0; }
  .fix { padding: 3px 8px; }
  tr, .note, pre, .finding h3 { break-inside: avoid; }
  tr.evidence-row, tr.finding-row, tr.note-row { break-before: avoid; }
  .first-page { break-after: page; }
  .walk { break-before: auto; }
  .walk .figure svg { max-height: 80mm; width: auto; margin: 0 auto; }
  .walk > h3, .walk > .verdict, .walk > ul, .walk > p.muted { break-after: avoid; }
  .topology-page { page: topology; break-before: page; }
  .topology-page .figure svg { width: 100%; max-height: 160mm; }
  details > summary { list-style: none; }
  footer { margin-top: 12px; font-size: 9px; }
}
`;

/** The page rules: paper, margins, and the node's name and page numbers in the margins. */
export function pageCss(page: PageSize, header: string): string {
  const size = page === 'letter' ? 'letter' : 'A4';
  const box = 'font: 8.5px "Segoe UI", Helvetica, Arial, sans-serif; color: #5f6368;';
  return `
@page { size: ${size}; margin: 14mm 12mm 14mm 12mm;
  @top-left { content: ${cssString(header)}; ${box} }
  @top-right { content: "hnsight network report"; ${box} }
  @bottom-right { content: "page " counter(page) " of " counter(pages); ${box} }
}
@page topology { size: ${size} landscape; }
`;
}
