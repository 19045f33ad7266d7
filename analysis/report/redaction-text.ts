// The header block of a redacted report, in Markdown and in HTML: what was replaced, and what the
// reader still has to check by hand before attaching the report to a public issue.
import { replacedText, type RedactionSummary } from '../redact/summary.ts';

const escHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** Our own text, but placeholders hold brackets: escaped so Markdown shows them as written. */
const escMd = (s: string) => s.replace(/[\\*_[\]~<>&|`]/g, '\\$&');

export function redactionMarkdown(r: RedactionSummary | undefined): string[] {
  if (!r) return [];
  return [`> **Redacted:** ${escMd(replacedText(r))}, each replaced by the same placeholder wherever it appears.`, '>', '> **Not redacted** (redaction cannot recognise these; read them before sharing):', ...r.notRecognised.map((t) => `> - ${escMd(t)}`), ''];
}

export function redactionHtml(r: RedactionSummary | undefined): string {
  if (!r) return '';
  return `<div class="note redaction"><p><b>Redacted:</b> ${escHtml(replacedText(r))}, each replaced by the same placeholder wherever it appears.</p><p><b>Not redacted</b> (redaction cannot recognise these; read them before sharing):</p><ul>${r.notRecognised.map((t) => `<li>${escHtml(t)}</li>`).join('')}</ul></div>`;
}
