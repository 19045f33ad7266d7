// The page's <meta> CSP must not carry frame-ancestors: Chromium ignores it there (CSP3 §6.4.2, "the
// frame-ancestors directive is not supported inside a <meta> element") and logs a console error on
// every load. The header form (services/server, electron/main/security.ts CSP_HEADER) keeps it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('renderer/index.html CSP meta', () => {
  it('has no directive that a meta CSP ignores', () => {
    const html = readFileSync(path.join(repo, 'renderer/index.html'), 'utf8');
    const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
    expect(m).not.toBeNull();
    const names = m![1].split(';').map((d) => d.trim().split(/\s+/)[0]);
    // CSP3: frame-ancestors, report-uri and sandbox are not supported in a meta element.
    for (const ignored of ['frame-ancestors', 'report-uri', 'sandbox']) expect(names).not.toContain(ignored);
    expect(names).toContain('default-src');
  });
});
