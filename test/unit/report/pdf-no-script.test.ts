// The PDF export's Chromium runs with JavaScript off (services/export/pdf.ts): a script that reached
// the report's HTML (a slip in escaping a bundle's text) cannot run. Printed for real, read back
// with pdftotext (poppler-utils, as the report test uses pdftoppm).
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumPath, htmlToPdf } from '../../../services/export/pdf.ts';

describe('htmlToPdf', () => {
  it('prints the page without running its scripts', async () => {
    expect(chromiumPath(), 'Chromium at /usr/bin/chromium').toBeDefined();
    const html = '<!doctype html><meta charset="utf-8"><p id="p">static text</p><script>document.getElementById("p").textContent = "SCRIPT RAN";</script>';
    const pdf = await htmlToPdf(html);
    const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-pdf-js-'));
    const file = path.join(dir, 'out.pdf');
    writeFileSync(file, pdf);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('static text');
    expect(text).not.toContain('SCRIPT RAN');
  }, 60_000);
});
