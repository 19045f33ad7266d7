// When the topology's camera moves: once per graph (and once more when ELK replaces the instant
// layout; never on a fold, which would jump away from what the user is looking at), to fit a new
// walk's path or a finding's objects, to follow the walk's current hop off screen, to zoom to the
// selection when asked (search, inventory, links), and on the Fit command. Where it goes is
// graph/camera-moves.ts; useCameraMover carries it out.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { useApp } from '../../store/app-store.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import type { LayoutState } from '../../graph/useLayout.ts';
import type { FlowEdge, FlowNode } from '../../graph/to-flow.ts';
import type { WalkPath } from '../../graph/walk-path.ts';
import { absoluteBox } from '../../graph/viewport.ts';
import { fitMove, focusMove, followMove, placeMove } from '../../graph/camera-moves.ts';
import { graphCommands } from '../../graph/graph-commands.ts';
import { useCameraMover } from './useCameraMover.ts';
import type { CameraStatus } from '../../graph/camera-tracker.ts';

export interface CameraInputs {
  wrapRef: RefObject<HTMLDivElement | null>;
  topology?: TopologyGraph;
  vis?: VisibleGraph;
  layout: LayoutState;
  walkPath?: WalkPath;
  findingIds?: ReadonlySet<string>;
  selectedId?: string;
}

export interface Camera {
  status: CameraStatus;
  /** Fits the whole graph (the toolbar's Fit, F, the menu). */
  fit(): void;
  onMoveStart(event: MouseEvent | TouchEvent | null): void;
}

/** The largest zoom a fit of a walk's path may use (a finding's: 1). */
const WALK_MAX_ZOOM = 1.1;

export function useCamera({ wrapRef, topology, vis, layout, walkPath, findingIds, selectedId }: CameraInputs): Camera {
  const visible = useApp((s) => s.view === 'topology');
  const walk = useApp((s) => s.walk);
  const hop = useApp((s) => s.hop);
  const activeFinding = useApp((s) => s.activeFinding);
  const focusSeq = useApp((s) => s.focusSeq);
  const rf = useReactFlow<FlowNode, FlowEdge>();
  const mover = useCameraMover(rf, wrapRef);
  const { begin, run, go, screen, viewport } = mover;
  const boxes = layout.boxes;

  // A new walk: its whole path when it fits at a readable zoom, else its current hop at that zoom.
  const fittedWalk = useRef<unknown>(undefined);
  // The current hop when the deferred move runs (the user may have stepped meanwhile).
  const currentHop = useRef<string[]>([]);
  currentHop.current = walkPath ? [...walkPath.current] : [];
  useEffect(() => {
    if (!visible || !walkPath || !walk || fittedWalk.current === walk || !boxes || !vis) return;
    fittedWalk.current = walk;
    const ids = [...walkPath.nodes.keys()];
    const ticket = begin('walk');
    requestAnimationFrame(() => run(ticket, fitMove(boxes, vis, ids, screen(), WALK_MAX_ZOOM, currentHop.current)));
  }, [visible, walk, walkPath, boxes, vis, begin, run, screen]);
  useEffect(() => {
    if (!walk) fittedWalk.current = undefined;
  }, [walk]);

  // A finding opened: its objects.
  const fittedFinding = useRef<unknown>(undefined);
  useEffect(() => {
    if (!visible || !findingIds?.size || fittedFinding.current === activeFinding || !boxes || !vis) return;
    fittedFinding.current = activeFinding;
    const ids = [...findingIds];
    const ticket = begin(`finding:${activeFinding}`);
    requestAnimationFrame(() => run(ticket, fitMove(boxes, vis, ids, screen(), 1)));
  }, [visible, findingIds, activeFinding, boxes, vis, begin, run, screen]);
  useEffect(() => {
    if (!activeFinding) fittedFinding.current = undefined;
  }, [activeFinding]);

  // A step through the fitted walk: follow the current hop when it is off screen. Only the hop
  // moving should pan, not every re-render, hence the one dependency.
  useEffect(() => {
    if (!visible || !walkPath?.current.size || !boxes || !vis || fittedWalk.current !== walk || !wrapRef.current) return;
    go(`hop:${hop + 1}`, followMove(boxes, vis, [...walkPath.current], viewport(), screen()));
  }, [hop]);

  const fit = useCallback(() => go('fit', { kind: 'fit-all', padding: 0.08, duration: 250, shows: [] }), [go]);
  useEffect(() => {
    graphCommands.fit = fit;
    return () => {
      if (graphCommands.fit === fit) graphCommands.fit = undefined;
    };
  }, [fit]);

  // The first view of each graph, and once more when the final layout replaces the instant one.
  const placedFor = useRef<{ graph: unknown; final: boolean }>({ graph: undefined, final: false });
  useEffect(() => {
    if (!boxes || !vis || !visible) return;
    const final = layout.status !== 'running';
    const placed = placedFor.current;
    if (placed.graph === topology && (placed.final || !final)) return;
    placedFor.current = { graph: topology, final };
    const ticket = begin('place');
    requestAnimationFrame(() => run(ticket, placeMove(boxes, vis, wrapRef.current ? screen() : undefined)));
  }, [layout.version, boxes, layout.status, topology, vis, visible, begin, run, screen, wrapRef]);

  // Zoom to the selection when asked, once its node has a box.
  const zoomedSeq = useRef(0);
  useEffect(() => {
    if (!visible || !selectedId || focusSeq === zoomedSeq.current || !boxes?.[selectedId] || !vis) return;
    zoomedSeq.current = focusSeq;
    if (!absoluteBox(boxes, vis, selectedId)) return;
    const ticket = begin(`focus:${selectedId}`);
    requestAnimationFrame(() => run(ticket, focusMove(boxes, vis, selectedId, rf.getZoom())));
  }, [visible, focusSeq, selectedId, boxes, vis, rf, begin, run]);

  return { status: mover.status, fit, onMoveStart: mover.onMoveStart };
}
