// Compare…: the open bundle (or any path) against another bundle of the same node (before/after a
// change) or a good node. The backend loads both (progress) and compares them; the result lists, per
// kind, what was added, removed or changed (fields before → after, each with its file:line), the VFP
// rule counters that moved, and the findings that appeared or disappeared. Filters and a search
// narrow it; two identical bundles say so.
import { useMemo, useState, type ReactNode } from 'react';
import { ArrowRight, GitCompare, Minus, Plus, RefreshCw, Search, X, Equal, FolderOpen } from 'lucide-react';
import type { DiffChange, DiffKind, DiffObject, DiffResult, DiffSection } from '../../../analysis/diff/types.ts';
import type { LoadProgress } from '../../../contract/index.ts';
import { Dialog } from '../components/Dialog.tsx';
import { useApp } from '../store/app-store.ts';
import { api } from '../api/index.ts';
import { fileLine } from '../lib/format.ts';
import { byPort, counterRows, DIFF_KINDS, filterDiff, isIdentical, sectionChanges, signed } from './model.ts';
import { ReachDiffSection } from '../compare/ReachDiffSection.tsx';

function Progress({ label, p }: { label: string; p: LoadProgress }) {
  const frac = p.phase === 'done' ? 1 : p.bytesTotal ? p.bytesDone / p.bytesTotal : p.filesTotal ? p.filesDone / p.filesTotal : 0;
  return (
    <div className="diff-progress">
      <span className="diff-side-tag">{label}</span>
      <div className="diff-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(frac * 100)}>
        <div style={{ width: `${Math.round(frac * 100)}%` }} />
      </div>
      <span className="muted small-text">{p.phase === 'done' ? 'loaded' : `${p.phase}${p.file ? ` ${p.file}` : ''}`}</span>
    </div>
  );
}

function Src({ src }: { src?: { file: string; line: number } }) {
  if (!src) return null;
  return <span className="mono muted diff-src">{fileLine(src.file, src.line)}</span>;
}

function ObjRow({ o, sign }: { o: DiffObject; sign: 'added' | 'removed' }) {
  return (
    <li className={`diff-item ${sign}`} data-testid={`diff-${sign}`}>
      <span className="diff-sign" aria-label={sign}>
        {sign === 'added' ? <Plus size={12} aria-hidden /> : <Minus size={12} aria-hidden />}
      </span>
      <span className="diff-label" title={o.key}>
        {o.label}
      </span>
      <Src src={o.src} />
    </li>
  );
}

/** The name of a changed object or rule and where it is in the second bundle (else the first). */
function ChangeHead({ c }: { c: { key: string; label: string; src?: { file: string; line: number }; srcB?: { file: string; line: number } } }) {
  return (
    <div className="diff-change-head">
      <span className="diff-label" title={c.key}>
        {c.label}
      </span>
      <Src src={c.srcB ?? c.src} />
    </div>
  );
}

function ChangeRow({ c }: { c: DiffChange }) {
  return (
    <li className="diff-item changed" data-testid="diff-changed">
      <span className="diff-sign" aria-label="changed">
        ~
      </span>
      <div className="diff-change">
        <ChangeHead c={c} />
        <table className="diff-fields">
          <tbody>
            {c.fields.map((f) => (
              <tr key={f.field} data-testid="diff-field">
                <th scope="row">{f.field}</th>
                <td className="mono diff-a">{f.a || '–'}</td>
                <td className="diff-arrow" aria-label="becomes">
                  <ArrowRight size={12} aria-hidden />
                </td>
                <td className="mono diff-b">{f.b || '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </li>
  );
}

function Items({ s }: { s: DiffSection }) {
  const body = (added: DiffObject[], removed: DiffObject[], changed: DiffChange[]): ReactNode => (
    <ul className="diff-list">
      {added.map((o) => (
        <ObjRow key={`+${o.key}`} o={o} sign="added" />
      ))}
      {removed.map((o) => (
        <ObjRow key={`-${o.key}`} o={o} sign="removed" />
      ))}
      {changed.map((c) => (
        <ChangeRow key={`~${c.key}`} c={c} />
      ))}
    </ul>
  );
  if (s.kind !== 'rule') return body(s.added, s.removed, s.changed);
  // Rules per port: a port's changes together.
  const ports = byPort([...s.added, ...s.removed, ...s.changed]).map((g) => g.port);
  return (
    <>
      {ports.map((p) => {
        const inPort = <T extends { key: string }>(l: T[]) => l.filter((x) => x.key === p || x.key.startsWith(`${p}/`));
        return (
          <div key={p} className="diff-port">
            <div className="diff-port-head mono">port {p}</div>
            {body(inPort(s.added), inPort(s.removed), inPort(s.changed))}
          </div>
        );
      })}
    </>
  );
}

function SectionView({ s }: { s: DiffSection }) {
  const n = sectionChanges(s);
  return (
    <section className="diff-section" data-testid={`diff-section-${s.kind}`} aria-label={s.title}>
      <h3>
        {s.title}
        {s.added.length > 0 && <span className="badge ok">+{s.added.length}</span>}
        {s.removed.length > 0 && <span className="badge error">−{s.removed.length}</span>}
        {s.changed.length > 0 && <span className="badge warning">~{s.changed.length}</span>}
        <span className="muted small-text">{s.unchanged.toLocaleString('en-US')} unchanged</span>
      </h3>
      {s.skipped && <div className="muted small-text">Not compared: {s.skipped}</div>}
      {n === 0 && !s.skipped && <div className="muted small-text">No change.</div>}
      {n > 0 && <Items s={s} />}
    </section>
  );
}

function Result({ r }: { r: DiffResult }) {
  const [kinds, setKinds] = useState<Set<DiffKind>>(new Set());
  const [onlyChanged, setOnlyChanged] = useState(true);
  const [query, setQuery] = useState('');
  const f = useMemo(() => filterDiff(r, { kinds, onlyChanged, query }), [r, kinds, onlyChanged, query]);
  const identical = isIdentical(r);
  const toggle = (k: DiffKind) => {
    const next = new Set(kinds);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    setKinds(next);
  };
  const changesOf = (k: DiffKind) => {
    const s = r.sections.find((x) => x.kind === k);
    return s ? sectionChanges(s) : 0;
  };
  return (
    <div className="diff-result" data-testid="diff-result">
      <div className="diff-sides">
        {(['a', 'b'] as const).map((side) => {
          const d = r[side];
          return (
            <div key={side} className="diff-side">
              <span className={`diff-side-tag ${side}`}>{side === 'a' ? 'A · before' : 'B · after'}</span>
              <strong>{d.hostName ?? 'unknown host'}</strong>
              {d.windowsBuild && <span className="muted small-text">build {d.windowsBuild}</span>}
              <span className="mono muted ellipsis" title={d.location}>
                {d.location}
              </span>
            </div>
          );
        })}
        {!r.sameHost && <div className="note warning diff-host-note"><span>The bundles name different hosts: this compares two nodes, not one node before and after.</span></div>}
      </div>
      {identical ? (
        <div className="diff-identical" data-testid="diff-identical">
          <Equal size={20} aria-hidden />
          <div>
            <strong>Identical</strong>
            <div className="muted">No object or VFP rule was added, removed or changed, no counter moved, no finding appeared or disappeared.</div>
          </div>
        </div>
      ) : (
        <>
          <div className="diff-totals" data-testid="diff-totals">
            {r.totals.added > 0 && <span className="badge ok">+{r.totals.added} added</span>}
            {r.totals.removed > 0 && <span className="badge error">−{r.totals.removed} removed</span>}
            {r.totals.changed > 0 && <span className="badge warning">~{r.totals.changed} changed</span>}
            {r.counters.length > 0 && <span className="badge info">{r.counters.length} rule counters moved</span>}
            {(r.findings.appeared.length > 0 || r.findings.disappeared.length > 0) && (
              <span className="badge info">
                findings +{r.findings.appeared.length} / −{r.findings.disappeared.length}
              </span>
            )}
          </div>
          <div className="diff-filters">
            <div className="diff-kind-filter" role="group" aria-label="Show kinds">
              {DIFF_KINDS.map((k) => (
                <button key={k.kind} type="button" className={`kind-toggle ${kinds.has(k.kind) ? 'on' : ''}`} aria-pressed={kinds.has(k.kind)} onClick={() => toggle(k.kind)} data-testid={`diff-kind-${k.kind}`}>
                  {k.label} <span className="muted">{changesOf(k.kind)}</span>
                </button>
              ))}
            </div>
            <label className="export-check">
              <input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} data-testid="diff-only-changed" /> only what changed
            </label>
            <div className="diff-search">
              <Search size={13} aria-hidden />
              <input className="input" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search the diff (IP, rule, GUID…)" aria-label="Search the diff" data-testid="diff-search" />
            </div>
          </div>
          {f.shown === 0 && (query || kinds.size > 0) && <div className="empty-note muted">Nothing in the diff matches.</div>}
          {f.sections.map((s) => (
            <SectionView key={s.kind} s={s} />
          ))}
          {f.counters.length > 0 && (
            <section className="diff-section" data-testid="diff-counters" aria-label="Rule counters">
              <h3>
                Rule counters that moved <span className="badge info">{f.counters.length}</span>
              </h3>
              <ul className="diff-list">
                {f.counters.map((c) => (
                  <li key={c.key} className="diff-item counter">
                    <span className="diff-sign">Δ</span>
                    <div className="diff-change">
                      <ChangeHead c={c} />
                      <table className="diff-fields">
                        <tbody>
                          {counterRows(c).map((row) => (
                            <tr key={row.key}>
                              <th scope="row">{row.label}</th>
                              <td className="mono diff-a">{row.a?.toLocaleString('en-US') ?? '–'}</td>
                              <td className="diff-arrow">
                                <ArrowRight size={12} aria-hidden />
                              </td>
                              <td className="mono diff-b">{row.b?.toLocaleString('en-US') ?? '–'}</td>
                              <td className={`mono diff-delta ${row.key.startsWith('dropped') && row.delta > 0 ? 'bad' : ''}`}>{signed(row.delta)}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {r.countersSkipped && <div className="muted small-text diff-skip">Counters not compared: {r.countersSkipped}</div>}
          {(f.appeared.length > 0 || f.disappeared.length > 0) && (
            <section className="diff-section" data-testid="diff-findings" aria-label="Findings">
              <h3>Findings</h3>
              <ul className="diff-list">
                {f.appeared.map((x) => (
                  <li key={`+${x.id}`} className="diff-item removed" data-testid="finding-appeared">
                    <span className="diff-sign">
                      <Plus size={12} aria-hidden />
                    </span>
                    <span className="diff-label">
                      <span className={`badge ${x.severity}`}>{x.severity}</span> appeared: {x.title}
                    </span>
                  </li>
                ))}
                {f.disappeared.map((x) => (
                  <li key={`-${x.id}`} className="diff-item added" data-testid="finding-disappeared">
                    <span className="diff-sign">
                      <Minus size={12} aria-hidden />
                    </span>
                    <span className="diff-label">
                      <span className={`badge ${x.severity}`}>{x.severity}</span> disappeared: {x.title}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </div>
  );
}

function CompareBody({ onClose }: { onClose(): void }) {
  const bundle = useApp((s) => s.bundle);
  const info = useApp((s) => s.info);
  const job = useApp((s) => s.diffJob);
  const error = useApp((s) => s.diffError);
  const startDiff = useApp((s) => s.startDiff);
  const [pathA, setPathA] = useState(job?.pathA ?? bundle?.location ?? '');
  const [pathB, setPathB] = useState(job?.pathB ?? '');
  const native = !!info?.nativeDialogs;
  const pick = async (set: (p: string) => void, kind: 'folder' | 'zip') => {
    const r = await api.pickBundle({ kind });
    if (r) set(r.path);
  };
  const canRun = !!pathA.trim() && !!pathB.trim() && job?.state !== 'loading';
  const field = (id: string, label: string, value: string, set: (v: string) => void, testId: string) => (
    <div className="compare-field">
      <label htmlFor={id} className={`diff-side-tag ${id.endsWith('a') ? 'a' : 'b'}`}>
        {label}
      </label>
      <input id={id} className="input mono" value={value} onChange={(e) => set(e.target.value)} placeholder="/path/to/CollectLogs  or  bundle.zip" spellCheck={false} autoComplete="off" data-testid={testId} />
      {native && (
        <>
          <button type="button" className="btn small" onClick={() => void pick(set, 'folder')} title="Choose a folder">
            <FolderOpen size={13} aria-hidden /> Folder…
          </button>
          <button type="button" className="btn small" onClick={() => void pick(set, 'zip')} title="Choose a .zip">
            Zip…
          </button>
        </>
      )}
    </div>
  );
  return (
    <>
      <div className="dialog-head">
        <GitCompare size={16} aria-hidden />
        <h2>Compare two bundles</h2>
        <span className="muted small-text ellipsis">what changed between A and B</span>
        <button type="button" className="btn ghost small icon" onClick={onClose} aria-label="Close">
          <X size={15} aria-hidden />
        </button>
      </div>
      <form
        className="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (canRun) void startDiff(pathA.trim(), pathB.trim());
        }}
      >
        {field('compare-a', 'A · before', pathA, setPathA, 'compare-a')}
        {field('compare-b', 'B · after', pathB, setPathB, 'compare-b')}
        <div className="compare-run">
          {!native && <span className="muted small-text">Paths on the machine running hnsight serve.</span>}
          <button type="button" className="btn small ghost" onClick={() => { setPathA(pathB); setPathB(pathA); }} disabled={!pathA && !pathB} title="Swap A and B">
            <RefreshCw size={12} aria-hidden /> Swap
          </button>
          <button type="submit" className="btn primary small" disabled={!canRun} data-testid="compare-run">
            <GitCompare size={13} aria-hidden /> Compare
          </button>
        </div>
      </form>
      <div className="compare-out scroll">
        {error && (
          <div className="note error" role="alert">
            <span>{error}</span>
          </div>
        )}
        {job?.state === 'loading' && (
          <div className="diff-loading" data-testid="diff-loading">
            <Progress label="A" p={job.progress.a} />
            <Progress label="B" p={job.progress.b} />
          </div>
        )}
        {job?.state === 'done' && job.result && <Result r={job.result} />}
        {job?.state === 'done' && job.result && <ReachDiffSection key={job.jobId} jobId={job.jobId} pathA={job.pathA} />}
        {!job && !error && <div className="empty-note muted">Choose the second bundle (B) and press Compare. A is the bundle open now.</div>}
      </div>
    </>
  );
}

export function CompareDialog() {
  const open = useApp((s) => s.diffOpen);
  const close = useApp((s) => s.closeCompare);
  if (!open) return null;
  return (
    <Dialog label="Compare two bundles" onClose={close} className="compare-dialog" testId="compare-dialog">
      <CompareBody onClose={close} />
    </Dialog>
  );
}
