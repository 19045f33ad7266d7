// The app shell re-renders the whole page (the graph with it) when what it reads changes: a search,
// a walk, a step through a walk and the palette must change none of it. A walk counted on #root from
// the shell once redrew the graph on every walk (docs/performance.md, the app).
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { shell } from '../../../renderer/src/store/shell-selectors.ts';
import type { AppState } from '../../../renderer/src/store/types.ts';
import { fakeApi } from './fake-api.ts';

const read = (s: AppState) => Object.fromEntries(Object.entries(shell).map(([k, sel]) => [k, sel(s)]));

describe("the app shell's selectors", () => {
  it('are the same before and after a search, a walk, a hop and the palette', async () => {
    const store = createAppStore({ api: fakeApi() });
    await store.getState().init();
    const before = read(store.getState());
    // What a search and a walk put in the store (their shapes do not matter to the shell).
    const walk = { hops: [{}, {}], verdict: 'delivered', deciding: 0 } as unknown as AppState['walk'];
    const changes: Partial<AppState>[] = [
      { paletteOpen: true },
      { query: 'LB_DSR', searching: true },
      { hits: [{ text: 'x' }] as unknown as AppState['hits'], hitsFor: 'LB_DSR', searching: false, activeIndex: 1 },
      { walkLoading: true },
      { walk, walkRequest: walk, walkLoading: false, hop: 0 },
      { hop: 1 },
      { paletteOpen: false },
    ];
    for (const c of changes) {
      store.setState(c);
      const after = read(store.getState());
      for (const k of Object.keys(before)) expect(Object.is(after[k], before[k]), `${k} changed on ${Object.keys(c).join(', ')}`).toBe(true);
    }
    // The check can fail: a selector over the walk does change.
    expect(Object.is(((s: AppState) => s.walk)(store.getState()), undefined)).toBe(false);
  });
});
