// PDF from the report's HTML with headless Chromium, driven by playwright-core (a dev dependency:
// present in a source checkout, absent in some installs). Used by the CLI and browser mode; the
// Electron shell prints with its own webContents.printToPDF instead (Backend option `renderPdf`).
import { existsSync } from 'node:fs';

export class PdfUnavailable extends Error {
  override name = 'PdfUnavailable';
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** The Chromium to drive: $HNSIGHT_CHROMIUM, else Debian's /usr/bin/chromium. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const p of [env.HNSIGHT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) if (p && existsSync(p)) return p;
  return undefined;
}

type Chromium = typeof import('playwright-core').chromium;

async function loadChromium(): Promise<{ chromium: Chromium; executablePath: string }> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new PdfUnavailable('PDF export needs Chromium: none found at /usr/bin/chromium (set HNSIGHT_CHROMIUM to its path), or export HTML and print it from a browser');
  let mod: typeof import('playwright-core');
  try {
    // A name bundlers cannot follow: the desktop build must not inline playwright (Electron prints itself).
    const name = ['playwright', 'core'].join('-');
    mod = (await import(name)) as typeof import('playwright-core');
  } catch {
    throw new PdfUnavailable('PDF export needs the playwright-core package (npm install playwright-core), or export HTML and print it from a browser');
  }
  return { chromium: mod.chromium, executablePath };
}

/**
 * Opens the HTML in headless Chromium with JavaScript off and every network request refused, and
 * prints it to PDF (A4). The report has no script of its own; texts from the bundle inside it are
 * escaped, and with JavaScript off a slip there still cannot run anything.
 */
export async function htmlToPdf(html: string): Promise<Uint8Array> {
  const { chromium, executablePath } = await loadChromium();
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    // The report is self-contained; anything it would fetch is refused rather than fetched.
    await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print' });
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
}
