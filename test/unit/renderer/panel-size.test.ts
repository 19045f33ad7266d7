// The side panel at 1280×800 and beyond (issue #23): a default that leaves the graph room, the user's
// width remembered across reloads (a new store over the same storage), and never wider than the
// window allows; hidden or shown, remembered too.
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../renderer/src/store/index.ts';
import { clampPanelWidth, defaultPanelWidth, maxPanelWidth, MIN_PANEL, PANEL_OPEN_KEY, PANEL_WIDTH_KEY, widePanelWidth } from '../../../renderer/src/store/panel-size.ts';
import { fitColumns } from '../../../renderer/src/views/fit-columns.ts';
import { fakeApi } from './fake-api.ts';

const memory = () => {
  const m = new Map<string, string>();
  return { m, getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('panel widths', () => {
  it('leave the view at least 640 px and the panel at least its minimum, at every window width', () => {
    for (let vw = 800; vw <= 3840; vw += 40) {
      for (const w of [defaultPanelWidth(vw), widePanelWidth(vw), clampPanelWidth(5000, vw)]) {
        expect(w).toBeGreaterThanOrEqual(MIN_PANEL);
        expect(w).toBeLessThanOrEqual(maxPanelWidth(vw));
        if (vw >= MIN_PANEL + 640) expect(vw - w).toBeGreaterThanOrEqual(640);
      }
      expect(widePanelWidth(vw)).toBeGreaterThanOrEqual(defaultPanelWidth(vw));
    }
    // At 1280 the graph keeps about 750 px beside the inspector (it had 630 beside a fixed 420 px).
    expect(1280 - 184 - defaultPanelWidth(1280)).toBeGreaterThanOrEqual(740);
  });

  it('the store starts at the default for its window, remembers a resize and the hidden panel across a reload', () => {
    const storage = memory();
    const s1 = createAppStore({ api: fakeApi(), storage, viewportWidth: () => 1280 });
    expect(s1.getState().inspectorWidth).toBe(defaultPanelWidth(1280));
    s1.getState().setInspectorWidth(512);
    expect(storage.m.get(PANEL_WIDTH_KEY)).toBe('512');
    s1.getState().togglePanel();
    expect(storage.m.get(PANEL_OPEN_KEY)).toBe('false');
    const s2 = createAppStore({ api: fakeApi(), storage, viewportWidth: () => 1280 });
    expect(s2.getState().inspectorWidth).toBe(512);
    expect(s2.getState().inspectorOpen).toBe(false);
    s2.getState().togglePanel();
    expect(createAppStore({ api: fakeApi(), storage, viewportWidth: () => 1280 }).getState().inspectorOpen).toBe(true);
    // A remembered width wider than a smaller window allows is narrowed to fit it.
    expect(createAppStore({ api: fakeApi(), storage, viewportWidth: () => 1000 }).getState().inspectorWidth).toBe(maxPanelWidth(1000));
  });

  it('the walk and the findings widen the panel to their width without overwriting the user’s', () => {
    const storage = memory();
    const s = createAppStore({ api: fakeApi(), storage, viewportWidth: () => 1280 });
    s.getState().setPanel('findings');
    expect(s.getState().inspectorWidth).toBe(widePanelWidth(1280));
    expect(storage.m.has(PANEL_WIDTH_KEY)).toBe(false);
  });
});

describe('fitColumns', () => {
  it('keeps natural widths that fit; else shrinks the widest first, never below a floor, to the space there is', () => {
    // A fixed sequence (a linear congruential generator): the same 500 cases every run.
    let seed = 23;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let t = 0; t < 500; t++) {
      const natural = Array.from({ length: 1 + rnd(9) }, () => 40 + rnd(400));
      const floors = natural.map((n) => Math.min(n, 56 + rnd(60)));
      const available = 100 + rnd(1500);
      const w = fitColumns(natural, floors, available);
      const sum = w.reduce((a, b) => a + b, 0);
      w.forEach((x, i) => {
        expect(x).toBeLessThanOrEqual(natural[i]);
        expect(x).toBeGreaterThanOrEqual(Math.min(natural[i], floors[i]));
      });
      const floorSum = floors.reduce((a, b) => a + b, 0);
      if (natural.reduce((a, b) => a + b, 0) <= available) expect(w).toEqual(natural);
      else if (floorSum <= available) {
        expect(sum).toBeLessThanOrEqual(available);
        // The widest give way first: every column cut short above its floor is cut to the same cap.
        const cut = w.map((x, i) => (x < natural[i] ? x : -1)).filter((x, i) => x >= 0 && x > floors[i]);
        if (cut.length) expect(Math.max(...cut) - Math.min(...cut)).toBeLessThanOrEqual(1);
      } else expect(w).toEqual(floors);
    }
  });
});
