// The findings on one side's walk in Compare: each with its severity, the hop it concerns, its title and
// how it bears on this packet — what the main walk view lists (renderer/src/walk/PathFindingList.tsx),
// without its link to the findings panel: the panel shows the open node's findings, and side B is
// another bundle.
import { AlertOctagon, AlertTriangle, Info } from 'lucide-react';
import type { WalkResult } from '../../../analysis/walk/types.ts';

const ICON = { error: AlertOctagon, warning: AlertTriangle, info: Info } as const;

export function ReachWalkFindings({ walk, side }: { walk: WalkResult; side: 'a' | 'b' }) {
  const fs = walk.findings ?? [];
  if (!fs.length) return null;
  return (
    <ul className="path-findings" aria-label="Findings on this path" data-testid={`reach-walk-findings-${side}`}>
      {fs.map((f) => {
        const Icon = ICON[f.severity];
        return (
          <li key={`${f.key}@${f.hop ?? ''}`} className={`path-finding ${f.severity}`} data-testid="path-finding" data-key={f.key} data-severity={f.severity}>
            <Icon size={13} aria-hidden className="pf-icon" />
            <span className="pf-text">
              <strong className="pf-title">
                {f.hop !== undefined && walk.hops[f.hop] ? <span className="chip-hop">hop {f.hop + 1}</span> : null} {f.title}
              </strong>
              <span className="pf-why">{f.why}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
