// Export…: the report's title and summary, the format, the walks in it (those added from the packet
// walk), redaction, and a live preview of exactly what will be written. Save… downloads the text
// formats (a blob: link: the browser or the desktop app asks where); a PDF is written by the backend
// where the desktop app's save dialog answers (the only place it may write), or printed by hnsight
// serve and downloaded. Copy as Markdown puts the Markdown report on the clipboard for an issue.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ClipboardCopy, Download, FileText, Footprints, Plus, Redo2, Undo2, X } from 'lucide-react';
import { Dialog } from '../components/Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { appStore } from '../store/app-store.ts';
import { api } from '../api/index.ts';
import { copyText } from '../lib/copy-text.ts';
import { formatBytes } from '../lib/format.ts';
import { errorMessage } from '../store/types.ts';
import { flowText } from '../walk/model.ts';
import { cleanFlow, sameFlow } from '../notes/model.ts';
import { flowKey, FORMATS, formatInfo, includedTraces, reportFileName, type ExportFormat } from './model.ts';

interface Preview {
  loading: boolean;
  content?: string;
  bytes?: number;
  error?: string;
}

function download(content: string | Uint8Array<ArrayBuffer>, mime: string, name: string) {
  const url = URL.createObjectURL(new Blob([content], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

function fromBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}


function ExportBody({ onClose }: { onClose(): void }) {
  const bundle = useApp((s) => s.bundle)!;
  const info = useApp((s) => s.info);
  const doc = useApp((s) => s.notes);
  const history = useApp((s) => s.notesHistory);
  const setTitle = useApp((s) => s.setReportTitle);
  const setSummary = useApp((s) => s.setReportSummary);
  const removeWalk = useApp((s) => s.removeWalkFromReport);
  const addWalk = useApp((s) => s.addWalkToReport);
  const undo = useApp((s) => s.undoNotes);
  const redo = useApp((s) => s.redoNotes);
  const walkFlow = useApp((s) => s.walkFlow);
  const toast = useApp((s) => s.toast);
  const [format, setFormat] = useState<ExportFormat>('html');
  const [redact, setRedact] = useState(false);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [preview, setPreview] = useState<Preview>({ loading: true });
  const [busy, setBusy] = useState(false);
  // The button pressed (Save…, Copy as Markdown) is disabled while it works, which drops the focus
  // to the page: it gets the focus back when the work is done.
  const pressed = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (busy || !pressed.current) return;
    const el = pressed.current;
    pressed.current = null;
    if (!document.activeElement || document.activeElement === document.body) el.focus();
  }, [busy]);

  const traces = useMemo(() => includedTraces(doc?.traces ?? [], excluded), [doc?.traces, excluded]);
  const previewFormat = format === 'pdf' ? 'html' : format;
  const tracesKey = JSON.stringify(traces);
  const notesKey = doc ? JSON.stringify([doc.title, doc.summary, doc.notes, doc.traces]) : '';

  useEffect(() => {
    let live = true;
    setPreview((p) => ({ ...p, loading: true }));
    const preview = async () => {
      try {
        // The report reads the saved notes: save what is waiting first.
        await appStore.getState().flushNotes();
        const r = await api.exportReport({ bundleId: bundle.id, format: previewFormat, traces: JSON.parse(tracesKey), redact });
        if (live) setPreview({ loading: false, content: r.content ?? '', bytes: r.bytes });
      } catch (e) {
        if (live) setPreview({ loading: false, error: errorMessage(e) });
      }
    };
    const t = setTimeout(() => void preview(), 350);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [bundle.id, previewFormat, tracesKey, redact, notesKey]);

  const exportText = async (f: Exclude<ExportFormat, 'pdf'>): Promise<string | undefined> => {
    await appStore.getState().flushNotes();
    const r = await api.exportReport({ bundleId: bundle.id, format: f, traces, redact });
    return r.content;
  };

  const copyMarkdown = async () => {
    pressed.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setBusy(true);
    try {
      const md = format === 'md' && preview.content && !preview.loading ? preview.content : await exportText('md');
      if (md && (await copyText(md))) toast('success', 'The report was copied as Markdown: paste it into an issue.');
      else toast('error', 'The clipboard refused the text.');
    } catch (e) {
      toast('error', `Could not make the Markdown: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const savePdf = async () => {
    const name = reportFileName(bundle.hostName, 'pdf', redact);
    if (info?.nativeDialogs) {
      // The backend writes only where its save dialog answered.
      const picked = await api.pickSavePath({ defaultName: name.replace(/\.pdf$/, ''), extension: 'pdf' });
      if (!picked) return;
      await appStore.getState().flushNotes();
      const r = await api.exportReport({ bundleId: bundle.id, format: 'pdf', traces, redact, outPath: picked.path });
      toast('success', `Wrote ${r.path ?? picked.path} (${formatBytes(r.bytes)}).`);
      return;
    }
    await appStore.getState().flushNotes();
    const r = await api.exportReport({ bundleId: bundle.id, format: 'pdf', traces, redact });
    if (!r.pdfBase64) throw new Error('the backend returned no PDF');
    download(fromBase64(r.pdfBase64), formatInfo('pdf').mime, name);
    toast('success', `Saved the PDF report (${formatBytes(r.bytes)}).`);
  };

  const save = async () => {
    pressed.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setBusy(true);
    try {
      if (format === 'pdf') await savePdf();
      else {
        const content = await exportText(format);
        if (content === undefined) throw new Error('the backend returned no content');
        download(content, formatInfo(format).mime, reportFileName(bundle.hostName, format, redact));
        toast('success', `Saved the ${formatInfo(format).label} report.`);
      }
    } catch (e) {
      toast('error', `Could not export: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const currentAddable = walkFlow && doc && !doc.traces.some((f) => sameFlow(f, cleanFlow(walkFlow)));
  const browser = info?.mode === 'browser';

  return (
    <>
      <div className="dialog-head">
        <FileText size={16} aria-hidden />
        <h2>Export report</h2>
        <span className="mono muted ellipsis">{bundle.hostName ?? bundle.location}</span>
        <button type="button" className="btn ghost small icon" onClick={undo} disabled={!history?.past.length} aria-label="Undo" title="Undo (Ctrl+Z)" data-testid="export-undo">
          <Undo2 size={14} aria-hidden />
        </button>
        <button type="button" className="btn ghost small icon" onClick={redo} disabled={!history?.future.length} aria-label="Redo" title="Redo (Ctrl+Shift+Z)">
          <Redo2 size={14} aria-hidden />
        </button>
        <button type="button" className="btn ghost small icon" onClick={onClose} aria-label="Close">
          <X size={15} aria-hidden />
        </button>
      </div>
      <div className="export-body">
        <div className="export-form">
          <label className="export-label" htmlFor="report-title">
            Title
          </label>
          <input
            id="report-title"
            className="input"
            value={doc?.title ?? ''}
            maxLength={300}
            placeholder={`Network report: ${bundle.hostName ?? 'node'}`}
            onChange={(e) => setTitle(e.target.value)}
            disabled={!doc}
            data-testid="report-title"
            data-autofocus
          />
          <label className="export-label" htmlFor="report-summary">
            Summary
          </label>
          <textarea
            id="report-summary"
            className="input export-summary"
            value={doc?.summary ?? ''}
            rows={4}
            placeholder="What is wrong, in two sentences: the symptom, what the walk shows, what to do."
            onChange={(e) => setSummary(e.target.value)}
            disabled={!doc}
            data-testid="report-summary"
          />

          <span className="export-label">Format</span>
          <div className="segmented" role="radiogroup" aria-label="Format">
            {FORMATS.map((f) => (
              <button key={f.key} type="button" role="radio" aria-checked={format === f.key} className={format === f.key ? 'on' : ''} onClick={() => setFormat(f.key)} data-testid={`format-${f.key}`}>
                {f.label}
              </button>
            ))}
          </div>

          <span className="export-label">Walks in the report</span>
          <div className="export-walks" data-testid="export-walks">
            {/* With no walk added, the report walks the node's presets (analysis/report/build.ts): say so. */}
            {!doc?.traces.length && (
              <div className="muted small-text" data-testid="export-walks-presets">
                None added: the report shows this node’s example walks (the presets of the walk form). Walk a packet and press “Add to report” on its verdict to choose your own.
              </div>
            )}
            {doc?.traces.map((f) => {
              const k = flowKey(f);
              const on = !excluded.has(k);
              return (
                <div key={k} className="export-walk" data-testid="export-walk">
                  <label>
                    <input
                      type="checkbox"
                      checked={on}
                      onChange={() => {
                        const next = new Set(excluded);
                        if (on) next.add(k);
                        else next.delete(k);
                        setExcluded(next);
                      }}
                    />
                    <Footprints size={12} aria-hidden />
                    <span className="mono">{flowText(f)}</span>
                    {f.dip && <span className="muted mono">via {f.dip}</span>}
                  </label>
                  <button type="button" className="btn ghost small icon" onClick={() => removeWalk(f)} aria-label={`Remove ${flowText(f)} from the report`} title="Remove from the report">
                    <X size={12} aria-hidden />
                  </button>
                </div>
              );
            })}
            {currentAddable && (
              <button type="button" className="btn small ghost" onClick={() => addWalk(walkFlow)} data-testid="export-add-current">
                <Plus size={12} aria-hidden /> Add the current walk <span className="mono">{flowText(walkFlow)}</span>
              </button>
            )}
          </div>

          <label className="export-check">
            <input type="checkbox" checked={redact} onChange={(e) => setRedact(e.target.checked)} data-testid="export-redact" />
            <span>
              Redact addresses, MACs, GUIDs and host names
              <span className="muted small-text"> — the same value gets the same placeholder everywhere</span>
            </span>
          </label>

          {format === 'pdf' && (
            <div className="export-pdf muted small-text" data-testid="export-pdf-note">
              {browser ? (
                <>
                  The PDF is printed by <span className="mono">hnsight serve</span> on its machine (it needs Chromium there) and downloaded. Or run{' '}
                  <span className="mono">hnsight report &lt;bundle&gt; --out report.pdf</span>.
                </>
              ) : (
                <>Write PDF… asks where to save it. The preview shows the HTML it is printed from.</>
              )}
            </div>
          )}
        </div>

        <div className="export-preview" data-testid="export-preview" aria-busy={preview.loading}>
          <div className="export-preview-head">
            <span>
              Preview{format === 'pdf' ? ' (the HTML the PDF is printed from)' : ''}
              {preview.bytes !== undefined && !preview.loading && <span className="muted"> · {formatBytes(preview.bytes)}</span>}
            </span>
            {preview.loading && <span className="spinner" aria-label="Updating the preview" />}
          </div>
          {preview.error ? (
            <div className="note error">
              <span>{preview.error}</span>
            </div>
          ) : previewFormat === 'html' ? (
            preview.content !== undefined && <iframe className="export-frame" sandbox="" tabIndex={-1} srcDoc={preview.content} title="Report preview" data-testid="export-frame" />
          ) : (
            <pre className="export-text mono" data-testid="export-text">
              {preview.content}
            </pre>
          )}
        </div>
      </div>
      <div className="dialog-actions export-actions">
        <span className="muted small-text export-saved">{doc ? `Notes saved with the bundle · ${doc.notes.length} note${doc.notes.length === 1 ? '' : 's'}` : ''}</span>
        <button type="button" className="btn" onClick={() => void copyMarkdown()} disabled={busy} data-testid="export-copy-md">
          <ClipboardCopy size={14} aria-hidden /> Copy as Markdown
        </button>
        <button type="button" className="btn primary" onClick={() => void save()} disabled={busy} data-testid="export-save">
          {busy ? <span className="spinner" aria-hidden /> : <Download size={14} aria-hidden />} {format === 'pdf' && !browser ? 'Write PDF…' : 'Save…'}
        </button>
      </div>
    </>
  );
}

export function ExportDialog() {
  const open = useApp((s) => s.exportOpen && !!s.bundle);
  const setOpen = useApp((s) => s.setExportOpen);
  if (!open) return null;
  return (
    <Dialog label="Export report" onClose={() => setOpen(false)} className="export-dialog" testId="export-dialog">
      <ExportBody onClose={() => setOpen(false)} />
    </Dialog>
  );
}
