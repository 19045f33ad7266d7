// Handlers of the export domain: where to save (the shell's dialog) and the report itself.
import path from 'node:path';
import { ApiError, type Request, type Response } from '../../../contract/index.ts';
import { exportReport, formatFromPath } from '../../export/export.ts';
import { PdfUnavailable } from '../../export/pdf.ts';
import { notesIdentity } from './notes.ts';
import type { BackendContext } from '../context.ts';
import type { Handlers } from '../dispatch.ts';

export function exportHandlers(ctx: BackendContext): Pick<Handlers, 'pickSavePath' | 'exportReport'> {
  return {
    pickSavePath: async (req) => {
      const picked = ctx.opts.dialogs ? await ctx.opts.dialogs.pickSavePath(req) : null;
      // Exports are written only where the save dialog answered.
      if (picked) ctx.grants.allowSave(picked.path);
      return picked;
    },
    exportReport: (req) => writeReport(ctx, req),
  };
}

async function writeReport(ctx: BackendContext, r: Request<'exportReport'>): Promise<Response<'exportReport'>> {
  const b = ctx.bundles.get(r.bundleId);
  const notes = await ctx.notes.get(await notesIdentity(b));
  const findings = await ctx.bundles.findings(b);
  let outPath: string | undefined;
  if (r.outPath) {
    if (!path.isAbsolute(r.outPath)) throw new ApiError('the file to write the report to must be given as an absolute path', 'invalid');
    outPath = path.resolve(r.outPath);
    if (formatFromPath(outPath) !== r.format) throw new ApiError(`the file to write must end in .${r.format}, the format chosen`, 'invalid');
    if (!ctx.grants.canSave(outPath)) throw new ApiError(`refused: ${outPath} was not chosen in the save dialog; exports are written only where it answered, or downloaded`, 'refused');
  }
  try {
    // The dialog sends the walks left ticked among those added: none sent while some were added means
    // every one was unticked — no walk, not the notes' walks again.
    const noWalks = r.traces.length === 0 && (notes?.traces.length ?? 0) > 0;
    const res = await exportReport(b.model, { format: r.format, flows: r.traces, noWalks, redact: r.redact, notes, findings, outPath, renderPdf: ctx.opts.renderPdf, generatedAt: new Date().toISOString() });
    return {
      bytes: res.bytes,
      ...(res.content !== undefined ? { content: res.content } : {}),
      ...(res.pdf ? { pdfBase64: Buffer.from(res.pdf.buffer, res.pdf.byteOffset, res.pdf.byteLength).toString('base64') } : {}),
      ...(res.path ? { path: res.path } : {}),
    };
  } catch (e) {
    if (e instanceof PdfUnavailable) throw new ApiError(e.message);
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new ApiError(`cannot write ${outPath}: ${code}`);
    throw e;
  }
}
