// Findings on the walk's path: each with its severity, title and how it bears on this packet. A
// finding the checks made links to its entry in the findings panel; what only the walk saw has none.
import { AlertOctagon, AlertTriangle, Info } from 'lucide-react';
import { useApp } from '../store/app-store.ts';
import type { PathFinding } from './verdict.ts';

const ICON = { error: AlertOctagon, warning: AlertTriangle, info: Info } as const;

export function PathFindingList({ findings, testId }: { findings: readonly PathFinding[]; testId: string }) {
  const known = useApp((s) => s.findings);
  const showFinding = useApp((s) => s.showFinding);
  if (!findings.length) return null;
  return (
    <ul className="path-findings" data-testid={testId}>
      {findings.map((f) => {
        const Icon = ICON[f.severity];
        const inPanel = !!known?.some((k) => k.key === f.key);
        return (
          <li key={`${f.key}@${f.hop ?? ''}`} className={`path-finding ${f.severity}`} data-testid="path-finding" data-key={f.key}>
            <Icon size={13} aria-hidden className="pf-icon" />
            <span className="pf-text">
              {inPanel ? (
                <button type="button" className="link pf-title" onClick={() => showFinding(f.key)} title="Open this finding in the findings panel" data-testid="path-finding-open">
                  {f.title}
                </button>
              ) : (
                <strong className="pf-title">{f.title}</strong>
              )}
              <span className="pf-why">{f.why}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
