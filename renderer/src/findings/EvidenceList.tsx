// The lines that show a finding (or a Service's state): each names its file and line and opens the
// file viewer there; a line that stands for a file the bundle lacks opens nothing. One list for the
// findings panel and the Services table's opened row (they once each wrote it; #24). A long list shows
// its first lines and "N more" (findings/model.ts evidenceShown) when the caller asks for it.
import type { FindingEvidence } from '../../../analysis/findings/types.ts';
import { useApp } from '../store/app-store.ts';
import { fileLine } from '../lib/format.ts';

interface Props {
  lines: readonly FindingEvidence[];
  /** Each line's test id. */
  testId: string;
  /** Lines left behind "N more", and what shows them. */
  more?: { count: number; onMore(): void };
}

export function EvidenceList({ lines, testId, more }: Props) {
  const openExcerpt = useApp((s) => s.openExcerpt);
  return (
    <ul className="finding-evidence" aria-label="Evidence">
      {lines.map((e, i) => (
        <li key={i}>
          <button
            type="button"
            className="evidence-line"
            onClick={() => void openExcerpt(e.file, Math.max(1, e.line))}
            disabled={e.line === 0 && /not in the bundle/i.test(e.text)}
            title={e.line > 0 ? `Open ${fileLine(e.file, e.line)}` : e.file}
            data-testid={testId}
          >
            <span className="mono ev-loc">{fileLine(e.file, e.line)}</span>
            <span className="mono ev-text">{e.text}</span>
          </button>
        </li>
      ))}
      {more && more.count > 0 && (
        <li>
          <button type="button" className="btn ghost small" onClick={more.onMore} data-testid="evidence-more">
            {more.count.toLocaleString('en-US')} more
          </button>
        </li>
      )}
    </ul>
  );
}
