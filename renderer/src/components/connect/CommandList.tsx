// The collection's commands: while it runs, every command so far with the newest in view; once
// finished, the ones that did not complete.
import { useEffect, useRef } from 'react';
import type { CollectCommandView } from '../../../../contract/index.ts';
import { formatBytes } from '../../lib/format.ts';

const STATUS_LABEL: Record<CollectCommandView['status'], string> = { ok: 'ok', partial: 'partial', failed: 'failed', cancelled: 'cancelled', skipped: 'not run' };
const STATUS_BADGE: Record<CollectCommandView['status'], string> = { ok: 'ok', partial: 'warning', failed: 'error', cancelled: 'info', skipped: 'info' };

export interface CommandListProps {
  rows: CollectCommandView[];
  title?: string;
  /** Keep the newest row in view (the running list). */
  follow?: boolean;
}

export function CommandList({ rows, title, follow }: CommandListProps) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (follow && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [rows.length, follow]);
  if (!rows.length) return null;
  return (
    <>
      {title && <h3 className="connect-list-title">{title}</h3>}
      <ul ref={ref} className="connect-commands" data-testid={follow ? 'connect-commands' : 'connect-problems'}>
        {rows.map((c) => (
          <li key={c.id}>
            <span className={`badge ${STATUS_BADGE[c.status]}`}>{STATUS_LABEL[c.status]}</span>
            <span className="mono ellipsis" title={c.title}>
              {c.file}
            </span>
            <span className="muted ellipsis connect-cmd-detail" title={c.error}>
              {c.error ?? c.title}
            </span>
            <span className="muted num">{c.bytes ? formatBytes(c.bytes) : ''}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
