// Where the topology's camera goes and what it says it is doing, without a DOM or React Flow.
import { describe, expect, it } from 'vitest';
import { visibleGraph } from '../../../renderer/src/graph/visible-graph.ts';
import { absoluteBounds } from '../../../renderer/src/graph/viewport.ts';
import { fitMove, focusMove, followMove, hopFocus, MIN_READABLE_ZOOM, moveTarget, onScreen, placeMove, TOOLBAR_INSET, type CameraMove, type Viewport } from '../../../renderer/src/graph/camera-moves.ts';
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
  it('fits what is lit below the toolbar, centred, no closer than the largest zoom', () => {
    const m = fitMove(boxes(), vis, ['uplink:eth', 'network:n1'], SCREEN, 1.1) as Extract<CameraMove, { kind: 'viewport' }>;
    expect(m.kind).toBe('viewport');
    expect(m.viewport.zoom).toBe(1.1);
    const c = toScreen(m.viewport, 250, 30);
    expect(c.x).toBeCloseTo(SCREEN.width / 2);
    expect(c.y).toBeCloseTo(TOOLBAR_INSET + (SCREEN.height - TOOLBAR_INSET) / 2);
    expect(m.shows).toEqual(['uplink:eth', 'network:n1']);
  });

  it('measures a node inside a group from the group’s corner', () => {
    expect(absoluteBounds(boxes(), vis, [EP])).toEqual({ x: 620, y: 140, width: 200, height: 60 });
    expect(absoluteBounds(boxes(), vis, ['nothing'])).toBeUndefined();
    expect(fitMove(boxes(), vis, ['nothing'], SCREEN, 1)).toBeUndefined();
  });

  it('centres the current hop at a readable zoom when the whole path only fits below it', () => {
    const far = boxes({ 'loadbalancer:lb0': { x: 20000, y: 0, width: 200, height: 60 } });
    const m = fitMove(far, vis, ['uplink:eth', EP, 'loadbalancer:lb0'], SCREEN, 1.1, [EP, 'loadbalancer:lb0']);
    expect(m).toEqual({ kind: 'center', x: 20100, y: 30, zoom: MIN_READABLE_ZOOM, duration: 350, shows: ['loadbalancer:lb0'] });
    // Without a hop to show, it fits everything, held at the minimum zoom, and promises nothing.
    const all = fitMove(boxes({ 'loadbalancer:lb0': { x: 200000, y: 0, width: 200, height: 60 } }), vis, ['uplink:eth', 'loadbalancer:lb0'], SCREEN, 1.1);
    expect(all).toMatchObject({ kind: 'viewport', viewport: { zoom: 0.2 }, shows: [] });
  });

  it('a hop is focused on what it reached, not the port it happens on', () => {
    expect(hopFocus(['pod', 'lb', 'backend'])).toBe('lb');
    expect(hopFocus(['pod'])).toBe('pod');
  });

  it('follows the current hop only when it leaves the screen, at the same zoom', () => {
    const vp = { x: 0, y: TOOLBAR_INSET, zoom: 1 };
    expect(onScreen(boxes(), vis, 'uplink:eth', vp, SCREEN)).toBe(true);
    // Under the toolbar is not on screen.
    expect(onScreen(boxes(), vis, 'uplink:eth', { x: 0, y: 0, zoom: 1 }, SCREEN)).toBe(false);
    expect(followMove(boxes(), vis, ['uplink:eth', 'network:n1'], vp, SCREEN)).toEqual({ kind: 'stay', shows: ['uplink:eth', 'network:n1'] });
    const off = followMove(boxes(), vis, ['uplink:eth', 'loadbalancer:lb0'], { x: -400, y: TOOLBAR_INSET, zoom: 1 }, SCREEN);
    expect(off).toEqual({ kind: 'center', x: 1000, y: 30, zoom: 1, duration: 300, shows: ['loadbalancer:lb0'] });
    expect(followMove(boxes(), vis, [], vp, SCREEN)).toBeUndefined();
  });

  it('zooms to a selected node no further out than 0.9', () => {
    expect(focusMove(boxes(), vis, EP, 0.3)).toEqual({ kind: 'center', x: 720, y: 170, zoom: 0.9, duration: 400, shows: [EP] });
    expect(focusMove(boxes(), vis, EP, 1.5)).toMatchObject({ zoom: 1.5 });
    expect(focusMove(boxes(), vis, 'nothing', 1)).toBeUndefined();
  });

  it('places a small graph with fit-all and a big one at a readable zoom', () => {
    expect(placeMove(boxes(), vis, SCREEN)).toEqual({ kind: 'fit-all', padding: 0.08, shows: [] });
    expect(placeMove(boxes(), vis, undefined)).toMatchObject({ kind: 'fit-all' });
    const tall = boxes({ 'loadbalancer:lb0': { x: 900, y: 60000, width: 200, height: 60 } });
    // Fitting 60,000 px of height is a smear: the left edge at the width's zoom (at most 1) instead.
    expect(placeMove(tall, vis, SCREEN)).toMatchObject({ kind: 'viewport', viewport: { x: 24, zoom: 1 }, shows: [] });
  });

  it('knows where a move ends without React Flow, except a fit-all', () => {
    const c = moveTarget({ kind: 'center', x: 100, y: 50, zoom: 2, duration: 1, shows: [] }, SCREEN)!;
    expect(toScreen(c, 100, 50)).toEqual({ x: 600, y: 400 });
    expect(moveTarget({ kind: 'fit-all', padding: 0, shows: [] }, SCREEN)).toBeUndefined();
  });
});

describe('camera status', () => {
  const center = (shows: string[]): CameraMove => ({ kind: 'center', x: 0, y: 0, zoom: 1, duration: 300, shows });

  it('is moving from the decision to the end of the move, then still with why and what it shows', () => {
    const t = new CameraTracker();
    expect(t.status()).toEqual({ state: 'still', reason: undefined, shows: [] });
    const ticket = t.begin('walk');
    expect(t.status()).toMatchObject({ state: 'moving', reason: undefined });
    const seq = t.run(ticket, center(['a', 'b']), SCREEN)!;
    expect(t.status()).toEqual({ state: 'moving', reason: 'walk', shows: ['a', 'b'] });
    expect(t.target()).toEqual({ x: 600, y: 400, zoom: 1 });
    expect(t.ended(seq)).toBe(true);
    expect(t.status()).toEqual({ state: 'still', reason: 'walk', shows: ['a', 'b'] });
    expect(t.target()).toBeUndefined();
  });

  it('only the latest move’s end makes it still (an interrupted move never ends)', () => {
    const t = new CameraTracker();
    const first = t.run(t.begin('hop:2'), center(['x']), SCREEN)!;
    const second = t.run(t.begin('hop:3'), center(['y']), SCREEN)!;
    expect(t.ended(first)).toBe(false);
    expect(t.status()).toMatchObject({ state: 'moving', reason: 'hop:3' });
    t.ended(second);
    expect(t.status()).toEqual({ state: 'still', reason: 'hop:3', shows: ['y'] });
  });

  it('a hop already on screen while the camera flies keeps it moving until the flight ends', () => {
    const t = new CameraTracker();
    const flight = t.run(t.begin('hop:2'), center(['x']), SCREEN)!;
    expect(t.run(t.begin('hop:3'), { kind: 'stay', shows: ['y'] }, SCREEN)).toBeUndefined();
    expect(t.status()).toEqual({ state: 'moving', reason: 'hop:3', shows: ['y'] });
    // The stay was judged against where the flight ends.
    expect(t.target()).toEqual({ x: 600, y: 400, zoom: 1 });
    t.ended(flight);
    expect(t.status()).toEqual({ state: 'still', reason: 'hop:3', shows: ['y'] });
  });

  it('a decision carried out after a newer one is what the camera did last', () => {
    const t = new CameraTracker();
    const fit = t.begin('walk');
    t.run(t.begin('hop:4'), { kind: 'stay', shows: ['lb'] }, SCREEN);
    // The deferred fit is still due: the camera is not still yet.
    expect(t.status()).toMatchObject({ state: 'moving', reason: 'hop:4' });
    const seq = t.run(fit, center(['lb']), SCREEN)!;
    t.ended(seq);
    expect(t.status()).toEqual({ state: 'still', reason: 'walk', shows: ['lb'] });
    expect(t.run(fit, center(['again']), SCREEN)).toBeUndefined();
  });

  it('a move the user begins ends the camera’s own; one decided and not carried out still happens', () => {
    const t = new CameraTracker();
    t.run(t.begin('finding:x'), center(['a']), SCREEN);
    t.userMoved();
    expect(t.status()).toEqual({ state: 'still', reason: 'user', shows: [] });
    expect(t.target()).toBeUndefined();
    const ticket = t.begin('focus:a');
    t.userMoved();
    expect(t.status()).toMatchObject({ state: 'moving' });
    const seq = t.run(ticket, center(['a']), SCREEN)!;
    t.ended(seq);
    expect(t.status()).toEqual({ state: 'still', reason: 'focus:a', shows: ['a'] });
  });

  it('a decision with nothing to do ends still at once', () => {
    const t = new CameraTracker();
    expect(t.run(t.begin('focus:gone'), undefined, SCREEN)).toBeUndefined();
    expect(t.status()).toEqual({ state: 'still', reason: 'focus:gone', shows: [] });
  });
});
