// What the graph marks: the selected object's node (and the edges touching it), the packet walk's
// path while the findings panel is not in front, the active finding's objects while it is, and the
// faults every finding marks. Reads the store; the marking itself is pure (graph/visible-graph.ts,
// walk-path.ts, highlight-flow.ts, fault-marks.ts).
import { useMemo } from 'react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { useApp } from '../../store/app-store.ts';
import { visibleNodeFor, visibleNodesFor, type VisibleGraph } from '../../graph/visible-graph.ts';
import type { FlowEdge, FlowNode } from '../../graph/to-flow.ts';
import type { Box } from '../../graph/elk-graph.ts';
import { walkPath, type WalkPath } from '../../graph/walk-path.ts';
import { applySelection, highlightFlow } from '../../graph/highlight-flow.ts';
import type { FaultMarks } from '../../graph/fault-marks.ts';
import { topoIndex } from '../../walk/model.ts';

export interface Highlight {
  /** The visible node standing for the selected object. */
  selectedId?: string;
  walkPath?: WalkPath;
  /** Visible node ids of the finding being looked at. */
  findingIds?: Set<string>;
  /** The flow with all of it marked. */
  shown: { nodes: FlowNode[]; edges: FlowEdge[] };
}

export function useHighlight(
  full: TopologyGraph | undefined,
  vis: VisibleGraph | undefined,
  flow: { nodes: FlowNode[]; edges: FlowEdge[] },
  marks: FaultMarks | undefined,
  boxes: Record<string, Box> | undefined,
): Highlight {
  const selected = useApp((s) => s.selected);
  const walk = useApp((s) => s.walk);
  const hop = useApp((s) => s.hop);
  const panel = useApp((s) => s.panel);
  const findings = useApp((s) => s.findings);
  const activeFinding = useApp((s) => s.activeFinding);

  const selectedId = useMemo(() => (full && selected && vis ? visibleNodeFor(full, vis, selected) : undefined), [full, selected, vis]);
  // Selection first and on its own: a step through the walk does not redo it.
  const selectedShown = useMemo(() => applySelection(flow.nodes, flow.edges, selectedId), [flow, selectedId]);

  const index = useMemo(() => (full ? topoIndex(full.nodes) : undefined), [full]);
  const path = useMemo(() => (walk && vis && index && panel !== 'findings' ? walkPath(walk, hop, index, vis) : undefined), [walk, hop, vis, index, panel]);
  const findingIds = useMemo(() => {
    if (panel !== 'findings' || !activeFinding || !full || !vis) return undefined;
    const f = findings?.find((x) => x.key === activeFinding);
    return visibleNodesFor(full, vis, f?.refs ?? []);
  }, [panel, activeFinding, findings, full, vis]);

  const shown = useMemo(() => highlightFlow(selectedShown, { walk: path, finding: findingIds, marks, selectedId }, vis, boxes), [selectedShown, path, findingIds, marks, selectedId, vis, boxes]);
  return { selectedId, walkPath: path, findingIds, shown };
}
