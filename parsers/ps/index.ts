export { parsePsTable, isTruncatedCell } from './table.ts';
export type { PsTable, PsTableColumn, PsTableRow } from './table.ts';
export { parsePsList, isPsListLine } from './list.ts';
export type { PsList, PsListRecord } from './list.ts';
export { parseMarkdownTable, isMarkdownTableLine } from './markdown-table.ts';
export { mapColumns, intCell } from './columns.ts';
export { splitLines, isBlank, isDashRule, isBannerLine } from './lines.ts';
