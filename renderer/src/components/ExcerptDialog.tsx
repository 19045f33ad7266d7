// The evidence viewer: lines of a bundle file around one line, that line highlighted and in view.
import { useEffect, useRef } from 'react';
import { FileText, X } from 'lucide-react';
import { Dialog } from './Dialog.tsx';
import { CopyButton } from './CopyChip.tsx';
import { useApp } from '../store/app-store.ts';
import { fileLine, plural } from '../lib/format.ts';

export function ExcerptDialog() {
  const excerpt = useApp((s) => s.excerpt);
  const close = useApp((s) => s.closeExcerpt);
  const focusRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    focusRef.current?.scrollIntoView({ block: 'center' });
  }, [excerpt?.data]);
  if (!excerpt) return null;
  const { data } = excerpt;
  const width = data ? String(data.start + data.lines.length).length : 4;
  return (
    <Dialog label={`Excerpt of ${fileLine(excerpt.file, excerpt.line)}`} onClose={close} className="excerpt-dialog" testId="excerpt">
      <div className="dialog-head">
        <FileText size={16} aria-hidden />
        <h2 className="mono ellipsis">{fileLine(excerpt.file, excerpt.line)}</h2>
        {data?.totalLines !== undefined && <span className="muted">{plural(data.totalLines, 'line')}</span>}
        <CopyButton value={fileLine(excerpt.file, excerpt.line)} label="file:line" />
        <button type="button" className="btn ghost small icon" onClick={close} aria-label="Close excerpt" data-autofocus="">
          <X size={16} aria-hidden />
        </button>
      </div>
      {excerpt.loading && (
        <div className="empty-note">
          <span className="spinner" /> Reading {excerpt.file}…
        </div>
      )}
      {excerpt.error && <div className="empty-note error-text">Could not read the excerpt: {excerpt.error}</div>}
      {data && (
        <div className="code-view" role="region" aria-label="File excerpt" tabIndex={0}>
          {data.lines.map((text, i) => {
            const n = data.start + i;
            const focus = n === data.focus;
            return (
              <div key={n} ref={focus ? focusRef : undefined} className={`code-line ${focus ? 'focus' : ''}`} data-line={n}>
                <span className="ln">{String(n).padStart(width, ' ')}</span>
                <span className="lt">{text || ' '}</span>
              </div>
            );
          })}
        </div>
      )}
    </Dialog>
  );
}

/** A `file:line` link that opens the excerpt. */
export function SourceLink({ file, line, className = '' }: { file: string; line: number; className?: string }) {
  const openExcerpt = useApp((s) => s.openExcerpt);
  return (
    <button type="button" className={`src-link mono ${className}`} onClick={(e) => (e.stopPropagation(), void openExcerpt(file, line))} title={`Open ${fileLine(file, line)}`}>
      {fileLine(file, line)}
    </button>
  );
}
