// What the checks found, beside the graph: a severity filter, findings grouped by area; opening one
// lights its objects on the graph and lists its evidence lines (each opens the excerpt), its fix, and
// — when it carries a flow — walks that packet to the hop that shows the problem.
import { Fragment, useEffect, useRef, useState } from 'react';
import { AlertOctagon, AlertTriangle, CheckCircle2, ChevronDown, ChevronRight, Footprints, HelpCircle, Info } from 'lucide-react';
import type { FindingView } from '../../../analysis/findings/types.ts';
import { useApp } from '../store/app-store.ts';
import { EvidenceList } from './EvidenceList.tsx';
import { CopyButton } from '../components/CopyChip.tsx';
import { flowText } from '../walk/model.ts';
import { NoteBadge, NotesFor } from '../notes/NotesFor.tsx';
import { findingTarget } from '../notes/model.ts';
import { checksProgressText, groupFindings, missingFiles, SEVERITIES, evidenceShown, severityCountText, severityCounts } from './model.ts';
import { codeParts, withoutCodeMarks } from '../../../analysis/report/code-spans.ts';

export const SEVERITY_ICON = { error: AlertOctagon, warning: AlertTriangle, info: Info } as const;

/** A checks' text with its code spans (`Get-HnsEndpoint`) drawn as code, without their backticks. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {codeParts(text).map((p, i) =>
        p.code ? (
          <code key={i} className="prose-code">
            {p.text}
          </code>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}

function FindingCard({ f, open }: { f: FindingView; open: boolean }) {
  const setActive = useApp((s) => s.setActiveFinding);
  const walkFinding = useApp((s) => s.walkFinding);
  const select = useApp((s) => s.select);
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (open) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [open]);
  const Icon = f.undecided ? HelpCircle : SEVERITY_ICON[f.severity];
  const missing = f.undecided ? missingFiles(f) : [];
  // Collapsed again when the finding closes, so a long list does not greet the next opening.
  const [allEvidence, setAllEvidence] = useState(false);
  useEffect(() => {
    if (!open) setAllEvidence(false);
  }, [open]);
  const ev = evidenceShown(f.evidence, allEvidence);
  const noteCount = useApp((s) => s.notes?.notes.filter((n) => n.target.ref === `finding:${f.key}`).length ?? 0);
  return (
    <li ref={ref} className={`finding ${f.severity} ${f.undecided ? 'undecided' : ''} ${open ? 'open' : ''}`} data-testid="finding" data-finding={f.id} data-key={f.key}>
      <button type="button" className="finding-head" onClick={() => setActive(open ? undefined : f.key)} aria-expanded={open}>
        {open ? <ChevronDown size={13} aria-hidden className="chev" /> : <ChevronRight size={13} aria-hidden className="chev" />}
        <Icon size={15} aria-hidden className="sev-icon" />
        <span className="finding-title">{f.title}</span>
        <NoteBadge count={noteCount} />
      </button>
      {f.undecided && missing.length > 0 && (
        <div className="finding-missing">
          could not decide: missing <span className="mono">{missing.join(', ')}</span>
        </div>
      )}
      {open && (
        <div className="finding-body" data-testid="finding-body">
          <p className="finding-expl">
            <Prose text={f.explanation} />
          </p>
          {f.fix && (
            <div className="finding-fix">
              <div className="fix-head">
                <span>Fix</span>
                {/* Copied without the code spans' backticks: a backtick is PowerShell's escape character. */}
                <CopyButton value={withoutCodeMarks(f.fix)} label="the fix" />
              </div>
              <p className="fix-text" data-testid="fix-text">
                <Prose text={f.fix} />
              </p>
            </div>
          )}
          {f.evidence.length > 0 && (
            <EvidenceList lines={ev.shown} testId="evidence" more={{ count: ev.more, onMore: () => setAllEvidence(true) }} />
          )}
          {f.refs.length > 0 && (
            <div className="finding-objects">
              <span className="muted">objects</span>
              {f.refs.slice(0, 12).map((r) => (
                <button key={`${r.type}:${r.id}`} type="button" className="obj-chip mono" onClick={() => void select(r, { focusGraph: true })} title={`Inspect ${r.type} ${r.id}`}>
                  {r.type} {r.id.length > 20 ? `${r.id.slice(0, 8)}…` : r.id}
                </button>
              ))}
              {f.refs.length > 12 && <span className="muted">+{f.refs.length - 12} more</span>}
            </div>
          )}
          {f.trace && (
            <button type="button" className="btn small primary walk-this" onClick={() => void walkFinding(f.key)} data-testid="walk-this">
              <Footprints size={13} aria-hidden /> Walk this packet <span className="mono">{flowText(f.trace)}</span>
            </button>
          )}
          <NotesFor target={findingTarget(f.key)} what="this finding" className="finding-notes" />
        </div>
      )}
    </li>
  );
}

export function FindingsPanel() {
  const findings = useApp((s) => s.findings);
  const error = useApp((s) => s.findingsError);
  const loading = useApp((s) => s.findingsLoading);
  const shown = useApp((s) => s.severityShown);
  const toggle = useApp((s) => s.toggleSeverity);
  const active = useApp((s) => s.activeFinding);
  const retry = useApp((s) => s.retryFindings);
  const step = useApp((s) => s.findingsStep);
  const counts = severityCounts(findings);
  const groups = findings ? groupFindings(findings, new Set(shown)) : [];
  const problems = counts.error + counts.warning;
  return (
    <div className="findings-panel side-body scroll" data-testid="findings-panel">
      <div className="sev-filter" role="group" aria-label="Show severities">
        {SEVERITIES.map((s) => {
          const Icon = SEVERITY_ICON[s];
          const on = shown.includes(s);
          return (
            <button key={s} type="button" className={`sev-toggle ${s} ${on ? 'on' : ''}`} aria-pressed={on} onClick={() => toggle(s)} data-testid={`sev-${s}`}>
              <Icon size={13} aria-hidden /> {severityCountText(counts[s], s)}
            </button>
          );
        })}
      </div>
      {error && (
        <div className="note error">
          <span>Could not run the checks: {error}</span>
          <button type="button" className="btn small" onClick={() => void retry()}>
            Retry
          </button>
        </div>
      )}
      {!findings && loading && (
        <div className="empty-note" data-testid="findings-progress" role="status">
          <span className="spinner" /> {checksProgressText(step?.progress)}
          {step?.progress && step.progress.total > 0 && <progress max={step.progress.total} value={step.progress.done} aria-label="Checks done" />}
        </div>
      )}
      {findings && problems === 0 && (
        <div className="no-problems" data-testid="no-problems">
          <CheckCircle2 size={20} aria-hidden />
          <div>
            <strong>No problems found</strong>
            <div className="muted">
              {counts.undecided > 0
                ? `${counts.undecided} check${counts.undecided === 1 ? '' : 's'} could not decide: the files they need are not in the bundle (listed below).`
                : 'Every check had what it needed.'}
            </div>
          </div>
        </div>
      )}
      {findings && groups.length === 0 && problems > 0 && <div className="empty-note muted">No findings of the chosen severities.</div>}
      {groups.map((g) => (
        <section key={g.area} className="finding-group" aria-label={g.title}>
          <h3>
            {g.title} <span className="muted">{g.findings.length}</span>
          </h3>
          <ul className="finding-list">
            {g.findings.map((f) => (
              <FindingCard key={f.key} f={f} open={active === f.key} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
