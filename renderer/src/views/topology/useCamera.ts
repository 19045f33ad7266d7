// When the topology's camera moves: once per graph, fitting all of it (and once more when ELK's order
// replaces the instant one, unless the user has moved since; never on a fold, which would jump away
// from what the user is looking at); when the canvas changes size (a side panel opened or closed:
// fitted again if the view was a fit, else the same centre kept); to fit a new walk's path or a
// finding's objects; to follow the walk's current hop off screen; to zoom to the selection when asked
// (search, inventory, links); to bring a node focused with the keyboard into view; into a column of
// the summary layer; and on the Fit command. Where it goes is graph/camera-moves.ts; useCameraMover
// carries it out.
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import type { TopologyGraph } from '../../../../analysis/view-models/types.ts';
import { useApp } from '../../store/app-store.ts';
import type { VisibleGraph } from '../../graph/visible-graph.ts';
import type { LayoutState } from '../../graph/useLayout.ts';
import type { FlowEdge, FlowNode } from '../../graph/to-flow.ts';
import type { WalkPath } from '../../graph/walk-path.ts';
import type { Box } from '../../graph/elk-graph.ts';
import { absoluteBox } from '../../graph/viewport.ts';
import { fitMove, focusMove, followMove, keepCentreMove, placeMove, revealMove, zoomIntoMove, type Screen, type Viewport } from '../../graph/camera-moves.ts';
import { graphCommands } from '../../graph/graph-commands.ts';
import { cardLayout, summaryModel } from '../../graph/summary.ts';
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
  /** Brings a node (focused with the keyboard) into view, readable. */
  reveal(id: string): void;
  /** The toolbar's zoom buttons: in (1) or out (-1) around the centre; the user's move like the wheel. */
  zoomStep(dir: 1 | -1): void;
  onMoveStart(event: MouseEvent | TouchEvent | null, viewport: Viewport): void;
  onMove(event: MouseEvent | TouchEvent | null, viewport: Viewport): void;
  onMoveEnd(): void;
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
  const { begin, run, go, screen, viewport, now } = mover;
  const boxes = layout.boxes;
  // The latest layout for moves decided before a frame and carried out after it.
  const latest = useRef({ boxes, vis });
  latest.current = { boxes, vis };
  const latestLayout = useRef(layout);
  latestLayout.current = layout;

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
  // moving should pan, not every re-render: the hop last followed is remembered.
  const followedHop = useRef(hop);
  useEffect(() => {
    if (followedHop.current === hop) return;
    followedHop.current = hop;
    if (!visible || !walkPath?.current.size || !boxes || !vis || fittedWalk.current !== walk || !wrapRef.current) return;
    go(`hop:${hop + 1}`, followMove(boxes, vis, [...walkPath.current], viewport(), screen()));
  }, [hop, visible, walkPath, boxes, vis, walk, wrapRef, go, viewport, screen]);

  const fitNow = useCallback(
    (reason: string, duration?: number) => {
      const ticket = begin(reason);
      requestAnimationFrame(() => {
        const { boxes: b, vis: v } = latest.current;
        const model = b && v && topology ? summaryModel(topology, v, b) : undefined;
        const cardRoom = model ? (vp: Viewport) => cardLayout(model.columns, vp, screen().width).height : undefined;
        run(ticket, b && v ? placeMove(b, v, screen(), duration, cardRoom) : undefined);
      });
    },
    [begin, run, screen, topology],
  );
  const fit = useCallback(() => fitNow('fit', 250), [fitNow]);
  const zoomInto = useCallback((box: Box) => go('zoom', zoomIntoMove(box, screen())), [go, screen]);
  useEffect(() => {
    graphCommands.fit = fit;
    graphCommands.zoomInto = zoomInto;
    return () => {
      if (graphCommands.fit === fit) graphCommands.fit = undefined;
      if (graphCommands.zoomInto === zoomInto) graphCommands.zoomInto = undefined;
    };
  }, [fit, zoomInto]);

  // The first view of each graph: all of it. Again when the arrangement changes (ELK's order
  // arrived) while the view is still the fitted one.
  const placed = useRef<{ graph: unknown; version: number }>({ graph: undefined, version: -1 });
  useEffect(() => {
    if (!boxes || !vis || !visible) return;
    const p = placed.current;
    if (p.graph === topology && (p.version === layout.version || !now().fitted)) return;
    placed.current = { graph: topology, version: layout.version };
    fitNow('place');
  }, [layout.version, boxes, topology, vis, visible, fitNow, now]);

  // The canvas changed size (a side panel opened or closed, the window was resized).
  const size = useRef<Screen | undefined>(undefined);
  useEffect(() => {
    const el = wrapRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const after = { width: el.clientWidth, height: el.clientHeight };
      const before = size.current;
      size.current = after;
      if (!before || !after.width || !after.height || (before.width === after.width && before.height === after.height)) return;
      if (!before.width || !before.height) return; // was hidden (another view): nothing was shown to keep
      // A fitted view is fitted again, its columns split again for the new shape first (the
      // arrangement's new version then places the view: the effect above).
      if (now().fitted) {
        if (!latestLayout.current.reshape()) fitNow('refit');
      }
      else go('resize', keepCentreMove(viewport(), before, after));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [wrapRef, now, fitNow, go, viewport, topology]);

  // Zoom to the selection when asked, once its node has a box.
  const zoomedSeq = useRef(0);
  useEffect(() => {
    if (!visible || !selectedId || focusSeq === zoomedSeq.current || !boxes?.[selectedId] || !vis) return;
    zoomedSeq.current = focusSeq;
    if (!absoluteBox(boxes, vis, selectedId)) return;
    const ticket = begin(`focus:${selectedId}`);
    requestAnimationFrame(() => run(ticket, focusMove(boxes, vis, selectedId, rf.getZoom())));
  }, [visible, focusSeq, selectedId, boxes, vis, rf, begin, run]);

  const reveal = useCallback(
    (id: string) => {
      const { boxes: b, vis: v } = latest.current;
      if (b && v) go(`key:${id}`, revealMove(b, v, id, viewport(), screen()));
    },
    [go, viewport, screen],
  );

  const zoomStep = useCallback(
    (dir: 1 | -1) => {
      const vp = viewport();
      const s = screen();
      const zoom = Math.min(2.5, Math.max(0.005, vp.zoom * (dir > 0 ? 1.25 : 0.8)));
      const cx = (s.width / 2 - vp.x) / vp.zoom;
      const cy = (s.height / 2 - vp.y) / vp.zoom;
      go('user', { kind: 'viewport', viewport: { x: s.width / 2 - cx * zoom, y: s.height / 2 - cy * zoom, zoom }, duration: 150, shows: [] });
    },
    [go, viewport, screen],
  );

  return { status: mover.status, fit, reveal, zoomStep, onMoveStart: mover.onMoveStart, onMove: mover.onMove, onMoveEnd: mover.onMoveEnd };
}
