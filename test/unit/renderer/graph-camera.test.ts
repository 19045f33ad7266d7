// Where the topology's camera goes and what it says it is doing, without a DOM or React Flow.
import { describe, expect, it } from 'vitest';
import { visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { absoluteBounds } from '../../../renderer/src/graph/viewport.ts';
import {
  FIT_PAD,
  MARK_PAD,
  FOCUS_ZOOM,
  fitMove,
  fitViewport,
  focusMove,
  followMove,
  hopFocus,
  keepCentreMove,
  minimapRect,
  minimapShown,
  moveTarget,
  onScreen,
  placeMove,
  revealMove,
  WALK_READABLE_ZOOM,
  zoomIntoMove,
  type CameraMove,
  type Viewport,
} from '../../../renderer/src/graph/camera-moves.ts';
import { MIN_READABLE_ZOOM } from '../../../renderer/src/graph/lod.ts';
import { CameraTracker } from '../../../renderer/src/graph/camera-tracker.ts';
import type { Box } from '../../../renderer/src/graph/elk-graph.ts';
import { syntheticTopology } from './topology-fixture.ts';

const EP = 'endpoint:00000000-aaaa-bbbb-cccc-dddddddddddd';
const SCREEN = { width: 1200, height: 800 };
const vis = visibleGraph(syntheticTopology(1, 1), new Set());

/** Boxes in flow coordinates; the endpoint sits inside its compartment (relative box). */
function boxes(over: Record<string, Box> = {}): Record<string, Box> {
  return {
    'uplink:eth': { x: 0, y: 0, width: 200, height: 60 },
    'network:n1': { x: 300, y: 0, width: 200, height: 60 },
    'compartment:2': { x: 600, y: 100, width: 240, height: 120 },
    [EP]: { x: 20, y: 40, width: 200, height: 60 },
    'loadbalancer:lb0': { x: 900, y: 0, width: 200, height: 60 },
    ...over,
  };
}

/** Where a flow point lands on screen under a viewport. */
const toScreen = (vp: Viewport, x: number, y: number) => ({ x: x * vp.zoom + vp.x, y: y * vp.zoom + vp.y });

describe('camera moves', () => {
  it('fits what is lit, centred on the whole canvas (no minimap is drawn over a walk or a finding), no closer than the largest zoom', () => {
    const m = fitMove(boxes(), vis, ['uplink:eth', 'network:n1'], SCREEN, 1.1) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(m.kind).toBe('viewport');
    expect(m.viewport.zoom).toBe(1.1);
    const c = toScreen(m.viewport, 250, 30);
    expect(c.x).toBeCloseTo(SCREEN.width / 2);
    expect(c.y).toBeCloseTo(SCREEN.height / 2);
    expect(m.shows).toEqual(['uplink:eth', 'network:n1']);
  });

  it('fits every node of a walk whole while that stays readable, even below the zoom a lone hop is centred at', () => {
    // A load balancer far above the pod (a tall column): the path fits only between the readable zoom and WALK_READABLE_ZOOM.
    const tall = boxes({ 'loadbalancer:lb0': { x: 900, y: -1500, width: 200, height: 60 } });
    const ids = ['uplink:eth', EP, 'loadbalancer:lb0'];
    const m = fitMove(tall, vis, ids, SCREEN, 1.1, [EP, 'loadbalancer:lb0']) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(m.kind).toBe('viewport');
    expect(m.viewport.zoom).toBeGreaterThanOrEqual(MIN_READABLE_ZOOM);
    expect(m.viewport.zoom).toBeLessThan(WALK_READABLE_ZOOM);
    expect(m.shows).toEqual(ids);
    for (const id of ids) expect(onScreen(tall, vis, id, m.viewport, SCREEN, false)).toBe(true);
  });

  it('leaves room around what is lit for the hop numbers and markers over its corners', () => {
    // Everything lit, too wide for the screen at any zoom up to 1.1: the fit is bound by the width.
    const ids = ['uplink:eth', 'network:n1', 'compartment:2', 'loadbalancer:lb0'];
    const m = fitMove(boxes(), vis, ids, { width: 600, height: 800 }, 1.1) as Extract<CameraMove, { kind: 'viewport' }>;
    const left = toScreen(m.viewport, 0, 0).x;
    const right = toScreen(m.viewport, 1100, 0).x;
    expect(left).toBeCloseTo(MARK_PAD);
    expect(right).toBeCloseTo(600 - MARK_PAD);
    expect(MARK_PAD).toBeGreaterThan(FIT_PAD);
  });

  it('measures a node inside a group from the group’s corner', () => {
    expect(absoluteBounds(boxes(), vis, [EP])).toEqual({ x: 620, y: 140, width: 200, height: 60 });
    expect(absoluteBounds(boxes(), vis, ['nothing'])).toBeUndefined();
    expect(fitMove(boxes(), vis, ['nothing'], SCREEN, 1)).toBeUndefined();
  });

  it('centres the current hop at a readable zoom when the whole path only fits below it', () => {
    const far = boxes({ 'loadbalancer:lb0': { x: 20000, y: 0, width: 200, height: 60 } });
    const m = fitMove(far, vis, ['uplink:eth', EP, 'loadbalancer:lb0'], SCREEN, 1.1, [EP, 'loadbalancer:lb0']);
    expect(m).toEqual({ kind: 'center', x: 20100, y: 30, zoom: WALK_READABLE_ZOOM, duration: 350, shows: ['loadbalancer:lb0'] });
    // Without a hop to show, it fits everything, however small.
    const all = fitMove(boxes({ 'loadbalancer:lb0': { x: 200000, y: 0, width: 200, height: 60 } }), vis, ['uplink:eth', 'loadbalancer:lb0'], SCREEN, 1.1) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(all.viewport.zoom).toBeLessThan(0.01);
    expect(all.shows).toEqual(['uplink:eth', 'loadbalancer:lb0']);
  });

  it('a hop is focused on what it reached, not the port it happens on', () => {
    expect(hopFocus(['pod', 'lb', 'backend'])).toBe('lb');
    expect(hopFocus(['pod'])).toBe('pod');
  });

  it('follows the current hop only when it leaves the screen, at the same zoom', () => {
    const vp = { x: 0, y: 0, zoom: 1 };
    expect(onScreen(boxes(), vis, 'uplink:eth', vp, SCREEN)).toBe(true);
    expect(onScreen(boxes(), vis, 'uplink:eth', { x: -20, y: 0, zoom: 1 }, SCREEN)).toBe(false);
    expect(followMove(boxes(), vis, ['uplink:eth', 'network:n1'], vp, SCREEN)).toEqual({ kind: 'stay', shows: ['uplink:eth', 'network:n1'] });
    const off = followMove(boxes(), vis, ['uplink:eth', 'loadbalancer:lb0'], { x: -400, y: 0, zoom: 1 }, SCREEN);
    expect(off).toEqual({ kind: 'center', x: 1000, y: 30, zoom: 1, duration: 300, shows: ['loadbalancer:lb0'] });
    expect(followMove(boxes(), vis, [], vp, SCREEN)).toBeUndefined();
  });

  it('counts a node under the minimap as off screen while the minimap is drawn', () => {
    // The graph runs far past the screen, so the minimap (bottom right) is drawn; a node under it is hidden.
    const m = minimapRect(SCREEN);
    const big = boxes({ 'loadbalancer:lb0': { x: m.x + 20, y: m.y + 20, width: 100, height: 40 }, 'network:n1': { x: 5000, y: 5000, width: 200, height: 60 } });
    const vp = { x: 0, y: 0, zoom: 1 };
    expect(minimapShown({ x: 0, y: 0, width: 5200, height: 5060 }, vp, SCREEN)).toBe(true);
    expect(onScreen(big, vis, 'loadbalancer:lb0', vp, SCREEN)).toBe(false);
    expect(onScreen(big, vis, 'uplink:eth', vp, SCREEN)).toBe(true);
    // A whole graph in view draws no minimap, and so hides nothing.
    expect(minimapShown({ x: 0, y: 0, width: 100, height: 100 }, vp, SCREEN)).toBe(false);
    // Nor does the summary layer (below the readable zoom).
    expect(minimapShown({ x: 0, y: 0, width: 50000, height: 100 }, { x: 0, y: 0, zoom: MIN_READABLE_ZOOM / 2 }, SCREEN)).toBe(false);
  });

  it('fits a part of a bigger graph clear of the minimap', () => {
    const target = { x: 0, y: 0, width: 1000, height: 700 };
    const graph = { x: 0, y: 0, width: 20000, height: 20000 };
    const vp = fitViewport(target, graph, SCREEN);
    const m = minimapRect(SCREEN);
    const br = toScreen(vp, 1000, 700);
    const tl = toScreen(vp, 0, 0);
    expect(tl.x).toBeGreaterThanOrEqual(0);
    expect(tl.y).toBeGreaterThanOrEqual(0);
    // Left of the minimap or above it.
    expect(br.x <= m.x || br.y <= m.y).toBe(true);
    // The whole graph in view needs no room for it.
    expect(fitViewport(graph, graph, SCREEN).zoom).toBeCloseTo(Math.min((SCREEN.width - 2 * FIT_PAD) / 20000, (SCREEN.height - 2 * FIT_PAD) / 20000));
  });

  it('zooms to a selected node no further out than 0.9', () => {
    expect(focusMove(boxes(), vis, EP, 0.3)).toEqual({ kind: 'center', x: 720, y: 170, zoom: 0.9, duration: 400, shows: [EP] });
    expect(focusMove(boxes(), vis, EP, 1.5)).toMatchObject({ zoom: 1.5 });
    expect(focusMove(boxes(), vis, 'nothing', 1)).toBeUndefined();
  });

  it('brings a node focused with the keyboard into view, readable, and stays when it already is', () => {
    expect(revealMove(boxes(), vis, 'uplink:eth', { x: 0, y: 0, zoom: 1 }, SCREEN)).toEqual({ kind: 'stay', shows: ['uplink:eth'] });
    expect(revealMove(boxes(), vis, 'loadbalancer:lb0', { x: -1000, y: 0, zoom: 1 }, SCREEN)).toEqual({ kind: 'center', x: 1000, y: 30, zoom: 1, duration: 250, shows: ['loadbalancer:lb0'] });
    // On screen but too small to read (the summary layer): zoomed in on it.
    expect(revealMove(boxes(), vis, 'uplink:eth', { x: 0, y: 0, zoom: 0.1 }, SCREEN)).toMatchObject({ kind: 'center', zoom: FOCUS_ZOOM, shows: ['uplink:eth'] });
  });

  it('places the first view on the whole graph, at most at zoom 1, however small that makes it', () => {
    const m = placeMove(boxes(), vis, SCREEN) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(m.viewport.zoom).toBe(1);
    expect(m.shows.sort()).toEqual(Object.keys(boxes()).sort());
    const tall = boxes({ 'loadbalancer:lb0': { x: 900, y: 60000, width: 200, height: 60 } });
    const t = placeMove(tall, vis, SCREEN) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(t.viewport.zoom).toBeCloseTo((SCREEN.height - 2 * FIT_PAD) / 60060);
    expect(toScreen(t.viewport, 0, 0).y).toBeCloseTo(FIT_PAD);
    expect(placeMove({}, vis, SCREEN)).toBeUndefined();
  });

  it('keeps the centre when the canvas changes size, and zooms into a column from its top', () => {
    const k = keepCentreMove({ x: 10, y: 20, zoom: 0.5 }, { width: 1000, height: 800 }, { width: 600, height: 800 }) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(k.viewport).toEqual({ x: -190, y: 20, zoom: 0.5 });
    const z = zoomIntoMove({ x: 0, y: 0, width: 300, height: 30000 }, SCREEN) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(z.viewport.zoom).toBe(FOCUS_ZOOM);
    expect(toScreen(z.viewport, 0, 0).y).toBe(FIT_PAD);
    expect(toScreen(z.viewport, 150, 0).x).toBeCloseTo(SCREEN.width / 2);
  });

  it('knows where a move ends without React Flow', () => {
    const c = moveTarget({ kind: 'center', x: 100, y: 50, zoom: 2, duration: 1, shows: [] }, SCREEN)!;
    expect(toScreen(c, 100, 50)).toEqual({ x: 600, y: 400 });
    expect(moveTarget({ kind: 'stay', shows: [] }, SCREEN)).toBeUndefined();
  });
});

describe('camera status', () => {
  const center = (shows: string[]): CameraMove => ({ kind: 'center', x: 0, y: 0, zoom: 1, duration: 300, shows });

  it('is moving from the decision to the end of the move, then still with why and what it shows', () => {
    const t = new CameraTracker();
    expect(t.status()).toEqual({ state: 'still', reason: undefined, shows: [], fitted: false });
    const ticket = t.begin('walk');
    expect(t.status()).toMatchObject({ state: 'moving', reason: undefined });
    const seq = t.run(ticket, center(['a', 'b']), SCREEN)!;
    expect(t.status()).toEqual({ state: 'moving', reason: 'walk', shows: ['a', 'b'], fitted: false });
    expect(t.target()).toEqual({ x: 600, y: 400, zoom: 1 });
    expect(t.ended(seq)).toBe(true);
    expect(t.status()).toEqual({ state: 'still', reason: 'walk', shows: ['a', 'b'], fitted: false });
    expect(t.target()).toBeUndefined();
  });

  it('only the latest move’s end makes it still (an interrupted move never ends)', () => {
    const t = new CameraTracker();
    const first = t.run(t.begin('hop:2'), center(['x']), SCREEN)!;
    const second = t.run(t.begin('hop:3'), center(['y']), SCREEN)!;
    expect(t.ended(first)).toBe(false);
    expect(t.status()).toMatchObject({ state: 'moving', reason: 'hop:3' });
    t.ended(second);
    expect(t.status()).toEqual({ state: 'still', reason: 'hop:3', shows: ['y'], fitted: false });
  });

  it('a hop already on screen while the camera flies keeps it moving until the flight ends', () => {
    const t = new CameraTracker();
    const flight = t.run(t.begin('hop:2'), center(['x']), SCREEN)!;
    expect(t.run(t.begin('hop:3'), { kind: 'stay', shows: ['y'] }, SCREEN)).toBeUndefined();
    expect(t.status()).toEqual({ state: 'moving', reason: 'hop:3', shows: ['y'], fitted: false });
    // The stay was judged against where the flight ends.
    expect(t.target()).toEqual({ x: 600, y: 400, zoom: 1 });
    t.ended(flight);
    expect(t.status()).toEqual({ state: 'still', reason: 'hop:3', shows: ['y'], fitted: false });
  });

  it('a decision carried out after a newer one is what the camera did last', () => {
    const t = new CameraTracker();
    const fit = t.begin('walk');
    t.run(t.begin('hop:4'), { kind: 'stay', shows: ['lb'] }, SCREEN);
    // The deferred fit is still due: the camera is not still yet.
    expect(t.status()).toMatchObject({ state: 'moving', reason: 'hop:4' });
    const seq = t.run(fit, center(['lb']), SCREEN)!;
    t.ended(seq);
    expect(t.status()).toEqual({ state: 'still', reason: 'walk', shows: ['lb'], fitted: false });
    expect(t.run(fit, center(['again']), SCREEN)).toBeUndefined();
  });

  it('a move the user begins ends the camera’s own; one decided and not carried out still happens', () => {
    const t = new CameraTracker();
    t.run(t.begin('finding:x'), center(['a']), SCREEN);
    t.userMoved();
    expect(t.status()).toEqual({ state: 'still', reason: 'user', shows: [], fitted: false });
    expect(t.target()).toBeUndefined();
    const ticket = t.begin('focus:a');
    t.userMoved();
    expect(t.status()).toMatchObject({ state: 'moving' });
    const seq = t.run(ticket, center(['a']), SCREEN)!;
    t.ended(seq);
    expect(t.status()).toEqual({ state: 'still', reason: 'focus:a', shows: ['a'], fitted: false });
  });

  it('stays fitted through moves that stay (a keyboard focus already in view) until a move or the user changes the view', () => {
    const t = new CameraTracker();
    const fit: CameraMove = { kind: 'viewport', viewport: { x: 0, y: 0, zoom: 0.5 }, shows: [] };
    t.ended(t.run(t.begin('place'), fit, SCREEN)!);
    expect(t.status()).toMatchObject({ reason: 'place', fitted: true });
    t.run(t.begin('key:a'), { kind: 'stay', shows: ['a'] }, SCREEN);
    expect(t.status()).toEqual({ state: 'still', reason: 'key:a', shows: ['a'], fitted: true });
    t.ended(t.run(t.begin('key:b'), center(['b']), SCREEN)!);
    expect(t.status()).toMatchObject({ reason: 'key:b', fitted: false });
    t.ended(t.run(t.begin('refit'), fit, SCREEN)!);
    expect(t.status().fitted).toBe(true);
    t.userMoved();
    expect(t.status().fitted).toBe(false);
    // A fit that found nothing to fit leaves no fitted view.
    t.run(t.begin('fit'), undefined, SCREEN);
    expect(t.status().fitted).toBe(false);
  });

  it('a decision with nothing to do ends still at once', () => {
    const t = new CameraTracker();
    expect(t.run(t.begin('focus:gone'), undefined, SCREEN)).toBeUndefined();
    expect(t.status()).toEqual({ state: 'still', reason: 'focus:gone', shows: [], fitted: false });
  });
});
