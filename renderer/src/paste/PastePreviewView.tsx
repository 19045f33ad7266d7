// What a pasted text is read as, shown in the Paste output… dialog while it is edited: the kind and
// the output recognised (how sure, why), what it gives counted, and the issues reading it raised —
// or what it came closest to when nothing recognised it. The state is in data-state for the tests.
import { AlertTriangle, CheckCircle2, HelpCircle } from 'lucide-react';
import type { PasteDialogState } from '../store/paste.ts';
import { formatBytes } from '../lib/format.ts';

const pct = (c: number) => `${Math.round(c * 100)}%`;

/** "endpoints 2", "rules 57": the counter's name first, as the yields name them (plural whatever the count). */
function yieldWords(yields: Record<string, number>): string[] {
  return Object.entries(yields).map(([what, n]) => `${what} ${n.toLocaleString('en-US')}`);
}

export function PastePreviewView({ paste }: { paste: PasteDialogState }) {
  const p = paste.previewOf === paste.text ? paste.preview : undefined;
  const state = !paste.text.trim() ? 'empty' : paste.error ? 'error' : p && !paste.checking ? 'ready' : 'checking';
  return (
    <section className="paste-preview" aria-live="polite" aria-label="What it is read as" data-testid="paste-preview" data-state={state} data-kind={state === 'ready' ? p!.kind : undefined}>
      {state === 'empty' && <p className="muted">Paste an output above to see what it is read as.</p>}
      {state === 'checking' && (
        <p className="muted">
          <span className="spinner small" aria-hidden /> Reading…
        </p>
      )}
      {state === 'error' && (
        <p className="error-text" role="alert" data-testid="paste-preview-error">
          <AlertTriangle size={14} aria-hidden /> {paste.error}
        </p>
      )}
      {state === 'ready' && p && (
        <>
          <div className="paste-read-as">
            {p.usable ? <CheckCircle2 size={16} aria-hidden className="ok-icon" /> : <HelpCircle size={16} aria-hidden className="warn-text" />}
            <span className="paste-kind" data-testid="paste-kind">
              {p.usable ? p.kindWords : p.kind === 'unknown' ? 'Not recognised' : `Listed, not read (${p.format})`}
            </span>
            {p.usable && (
              <span className="muted" data-testid="paste-format">
                {p.format} · {pct(p.confidence)} sure
              </span>
            )}
            <span className="muted paste-size">{formatBytes(p.bytes)}</span>
          </div>
          {p.reason && p.usable && <p className="muted paste-reason">{p.reason}</p>}
          {p.usable && (
            <p className="paste-yields" data-testid="paste-yields">
              {yieldWords(p.yields).length ? (
                yieldWords(p.yields).map((y) => (
                  <span key={y} className="badge">
                    {y}
                  </span>
                ))
              ) : (
                <span className="warn-text">Nothing a node is built from was found in it.</span>
              )}
            </p>
          )}
          {!p.usable && p.near.length > 0 && (
            <p className="muted">
              Closest: {p.near.map((n) => `${n.kindWords} (${n.format}, ${pct(n.confidence)})`).join('; ')}.
            </p>
          )}
          {p.issueCount > 0 && (
            <ul className="paste-issues" data-testid="paste-issues">
              {p.issues.slice(0, 5).map((i, k) => (
                <li key={k}>
                  <span className={`badge ${i.severity}`}>{i.severity}</span> {i.line > 0 && <span className="mono">line {i.line}: </span>}
                  {i.message}
                </li>
              ))}
              {p.issueCount > 5 && <li className="muted">…and {p.issueCount - 5} more (Files &amp; issues, once added)</li>}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
