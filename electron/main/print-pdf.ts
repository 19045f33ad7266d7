// Report PDFs in the desktop app: Electron's own printToPDF on the self-contained report HTML, in a
// hidden, sandboxed window with JavaScript off (the report has no script) and no network.
import { BrowserWindow } from 'electron';

export async function printHtmlToPdf(html: string): Promise<Uint8Array> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, webSecurity: true },
  });
  try {
    // A data: URL keeps the document off disk; the report is self-contained (inline CSS and SVG).
    await win.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html, 'utf8').toString('base64')}`);
    // The report's CSS names the paper (A4 or Letter) and gives the topology a landscape page.
    const pdf = await win.webContents.printToPDF({ printBackground: true, preferCSSPageSize: true });
    return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  } finally {
    win.destroy();
  }
}
