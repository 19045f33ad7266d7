// Files & issues: every file of the bundle — what hnsight took it for, its encoding and line
// endings, whether it was used — and every issue with its line. An issue opens the excerpt.
import { Fragment, useMemo, useState } from 'react';
import { ChevronDown, ChevronRight, AlertTriangle } from 'lucide-react';
import type { FileSummary } from '../../../analysis/view-models/types.ts';
import { useApp } from '../store/app-store.ts';
import { formatBytes, fileLine, plural } from '../lib/format.ts';
import { SourceLink } from '../components/ExcerptDialog.tsx';
import { kindWords } from '../../../parsers/bundle/file-kind.ts';

const ISSUE_PAGE = 300;

function IssueList({ file }: { file: FileSummary }) {
  const openExcerpt = useApp((s) => s.openExcerpt);
  const [all, setAll] = useState(false);
  const issues = all ? file.issues : file.issues.slice(0, ISSUE_PAGE);
  if (!file.issues.length) return <div className="issue-none muted">No issues: read without complaint.</div>;
  return (
    <ul className="issue-list" data-testid={`issues-${file.name}`}>
      {issues.map((i, k) => (
        <li key={k}>
          <button type="button" className="issue" onClick={() => void openExcerpt(file.name, Math.max(1, i.line))} data-testid="issue">
            <span className="mono issue-loc">{fileLine(file.name, i.line)}</span>
            <span className={`badge ${i.severity}`}>{i.severity}</span>
            <span className="issue-msg">{i.message}</span>
          </button>
        </li>
      ))}
      {!all && file.issues.length > ISSUE_PAGE && (
        <li>
          <button type="button" className="btn small" onClick={() => setAll(true)}>
            Show all {plural(file.issues.length, 'issue')}
          </button>
        </li>
      )}
    </ul>
  );
}

export function FilesView() {
  const bundle = useApp((s) => s.bundle);
  const expanded = useApp((s) => s.expandedFile);
  const setExpanded = useApp((s) => s.setExpandedFile);
  const [onlyIssues, setOnlyIssues] = useState(false);
  const files = useMemo(() => {
    const list = [...(bundle?.files ?? [])];
    // Broken files first: that is why someone opens this view.
    list.sort((a, b) => b.errors - a.errors || b.warnings - a.warnings || Number(b.used) - Number(a.used) || a.name.localeCompare(b.name));
    return onlyIssues ? list.filter((f) => f.errors || f.warnings) : list;
  }, [bundle, onlyIssues]);
  if (!bundle) return null;
  return (
    <div className="files-view scroll" data-testid="files-view">
      <div className="files-head">
        <h2>Files &amp; issues</h2>
        <span className="badge ok">{bundle.filesRead} read</span>
        <span className="badge">{bundle.filesListed} listed only</span>
        <span className={`badge ${bundle.filesBroken ? 'error' : ''}`}>{bundle.filesBroken} broken</span>
        <label className="check">
          <input type="checkbox" checked={onlyIssues} onChange={(e) => setOnlyIssues(e.target.checked)} /> only files with issues
        </label>
      </div>
      <table className="files-table">
        <thead>
          <tr>
            <th aria-label="Expand" />
            <th>File</th>
            <th>Kind</th>
            <th>Encoding</th>
            <th>Lines</th>
            <th className="num">Size</th>
            <th>Used</th>
            <th className="num">Errors</th>
            <th className="num">Warnings</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => {
            const open = expanded === f.name;
            return (
              <Fragment key={f.name}>
                <tr className={`file-row ${open ? 'open' : ''} ${f.errors ? 'has-errors' : ''}`} onClick={() => setExpanded(open ? undefined : f.name)} data-testid={`file-${f.name}`}>
                  <td>
                    <button type="button" className="btn ghost small icon" aria-expanded={open} aria-label={`${open ? 'Hide' : 'Show'} issues of ${f.name}`} onClick={(e) => (e.stopPropagation(), setExpanded(open ? undefined : f.name))}>
                      {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
                    </button>
                  </td>
                  <td className="mono file-name">{f.name}</td>
                  <td className="file-kind">{kindWords(f.kind, f.used)}</td>
                  <td className="mono">{f.encoding}</td>
                  <td className="mono">{f.lineEnding ?? '—'}</td>
                  <td className="num">{formatBytes(f.size)}</td>
                  <td>{f.used ? <span className="badge ok">used</span> : <span className="muted" title={f.note}>{f.note ?? 'listed'}</span>}</td>
                  <td className="num">{f.errors ? <span className="badge error">{f.errors}</span> : <span className="muted">0</span>}</td>
                  <td className="num">{f.warnings ? <span className="badge warning">{f.warnings}</span> : <span className="muted">0</span>}</td>
                </tr>
                {open && (
                  <tr className="file-issues">
                    <td />
                    <td colSpan={8}>
                      {f.note && f.used && <div className="muted file-note">{f.note}</div>}
                      <IssueList file={f} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {bundle.unmatched.length > 0 && (
        <details className="joins" open={bundle.unmatched.length <= 5}>
          <summary>
            <AlertTriangle size={15} aria-hidden className="warn-text" /> {bundle.unmatched.length} failed join{bundle.unmatched.length === 1 ? '' : 's'}: objects that point at something the bundle does not have
          </summary>
          <ul>
            {bundle.unmatched.map((u, i) => (
              <li key={i}>
                <span className="badge warning">{u.kind}</span> {u.message} {u.src && <SourceLink file={u.src.file} line={u.src.line} />}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
