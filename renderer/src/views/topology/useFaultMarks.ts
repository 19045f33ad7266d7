// The faults every finding marks on the drawn graph (graph/fault-marks.ts): nodes with a marker,
// edges between two of a finding's objects in red or amber. Recomputed when the findings arrive or
// the folding changes.
import { useMemo } from 'react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { useApp } from '../../store/app-store.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import { faultMarks, nodeIndex, type FaultMarks } from '../../graph/fault-marks.ts';

export function useFaultMarks(full: TopologyGraph | undefined, vis: VisibleGraph | undefined): FaultMarks | undefined {
  const findings = useApp((s) => s.findings);
  const index = useMemo(() => (full ? nodeIndex(full) : undefined), [full]);
  return useMemo(() => (index && vis && findings?.length ? faultMarks(index, vis, findings) : undefined), [index, vis, findings]);
}
