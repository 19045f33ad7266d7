// Carries out the topology camera's moves with React Flow, and keeps the camera's status (moving or
// still, why, what it shows: graph/camera-tracker.ts) as React state for the graph's container
// (data-camera…), so tests and screenshots wait for the camera to settle instead of sleeping.
import { useCallback, useMemo, useRef, useState, type RefObject } from 'react';
import type { ReactFlowInstance } from '@xyflow/react';
import type { CameraMove, Screen, Viewport } from '../../graph/camera-moves.ts';
import { CameraTracker, type CameraStatus } from '../../graph/camera-tracker.ts';
import type { FlowEdge, FlowNode } from '../../graph/to-flow.ts';

export interface CameraMover {
  status: CameraStatus;
  /** The canvas size now (800×600 before the canvas exists). */
  screen(): Screen;
  /** Where the camera is, or where the move under way takes it. */
  viewport(): Viewport;
  /** A move is decided for `reason`; carry it out with run(). */
  begin(reason: string): number;
  /** Carries out a decided move; an undefined move ends the decision without moving. */
  run(ticket: number, move: CameraMove | undefined): void;
  /** begin() and run() at once. */
  go(reason: string, move: CameraMove | undefined): void;
  /** React Flow's onMoveStart, onMove and onMoveEnd: a move with a source event is the user's. */
  onMoveStart(event: MouseEvent | TouchEvent | null, viewport: Viewport): void;
  onMove(event: MouseEvent | TouchEvent | null, viewport: Viewport): void;
  onMoveEnd(): void;
  /** The camera's status now (status is the last one rendered). */
  now(): CameraStatus;
}

export function useCameraMover(rf: ReactFlowInstance<FlowNode, FlowEdge>, wrapRef: RefObject<HTMLDivElement | null>): CameraMover {
  const tracker = useRef(new CameraTracker()).current;
  const [status, setStatus] = useState<CameraStatus>(() => tracker.status());
  // A new status object only when something changed: each one re-renders the graph.
  const publish = useCallback(() => {
    const next = tracker.status();
    setStatus((s) => (s.state === next.state && s.reason === next.reason && s.fitted === next.fitted && s.shows.join(' ') === next.shows.join(' ') ? s : next));
  }, [tracker]);

  const screen = useCallback((): Screen => {
    const el = wrapRef.current;
    return { width: el?.clientWidth ?? 800, height: el?.clientHeight ?? 600 };
  }, [wrapRef]);

  const begin = useCallback(
    (reason: string) => {
      const ticket = tracker.begin(reason);
      publish();
      return ticket;
    },
    [tracker, publish],
  );

  const run = useCallback(
    (ticket: number, move: CameraMove | undefined) => {
      const seq = tracker.run(ticket, move, screen());
      publish();
      if (seq === undefined || !move) return;
      const done = () => {
        if (tracker.ended(seq)) publish();
      };
      if (move.kind === 'viewport') void rf.setViewport(move.viewport, move.duration ? { duration: move.duration } : undefined).then(done);
      else if (move.kind === 'center') void rf.setCenter(move.x, move.y, { zoom: move.zoom, duration: move.duration }).then(done);
    },
    [tracker, rf, screen, publish],
  );

  const go = useCallback((reason: string, move: CameraMove | undefined) => run(begin(reason), move), [begin, run]);
  const viewport = useCallback(() => tracker.target() ?? rf.getViewport(), [tracker, rf]);
  // A press on the canvas (a click on a node or its controls included) starts a d3-zoom gesture that
  // may never move anything: the view counts as the user's only once it moved. A press does end the
  // camera's own move under way (d3-zoom interrupts it).
  const gesture = useRef<{ start: Viewport; moved: boolean } | undefined>(undefined);
  const onMoveStart = useCallback(
    (event: MouseEvent | TouchEvent | null, vp: Viewport) => {
      if (!event) return; // the camera's own move
      // graph.css hides a dense graph's edges while the user pans or zooms: a class, not React state,
      // so the gesture re-renders nothing.
      wrapRef.current?.classList.add('panning');
      const interrupts = tracker.status().state === 'moving';
      gesture.current = { start: vp, moved: interrupts };
      if (!interrupts) return;
      tracker.userMoved();
      publish();
    },
    [tracker, publish, wrapRef],
  );
  const onMove = useCallback(
    (event: MouseEvent | TouchEvent | null, vp: Viewport) => {
      const g = gesture.current;
      if (!event || !g || g.moved) return;
      if (vp.x === g.start.x && vp.y === g.start.y && vp.zoom === g.start.zoom) return;
      g.moved = true;
      tracker.userMoved();
      publish();
    },
    [tracker, publish],
  );
  const onMoveEnd = useCallback(() => {
    gesture.current = undefined;
    wrapRef.current?.classList.remove('panning');
  }, [wrapRef]);

  const now = useCallback(() => tracker.status(), [tracker]);
  return useMemo(() => ({ status, screen, viewport, begin, run, go, onMoveStart, onMove, onMoveEnd, now }), [status, screen, viewport, begin, run, go, onMoveStart, onMove, onMoveEnd, now]);
}
