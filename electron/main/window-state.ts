// The window's bounds and maximized state, remembered in userData/window-state.json. Pure apart from
// the file helpers: the main process passes in the displays' work areas.
import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1400, height: 900 };
const MIN = { width: 800, height: 500 };

const int = z.number().int().min(-100_000).max(100_000);
const schema = z.object({
  bounds: z.object({ x: int, y: int, width: int.min(1), height: int.min(1) }),
  maximized: z.boolean(),
});

/** A saved state as read from disk, or undefined when it is not one. */
export function parseWindowState(raw: unknown): WindowState | undefined {
  const r = schema.safeParse(raw);
  return r.success ? { bounds: { ...r.data.bounds }, maximized: r.data.maximized } : undefined;
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Where to open the window: the saved bounds if enough of them (a 100×50 corner) lies on a display
 * that exists now, fitted inside that display; otherwise the default size, centred by the OS.
 */
export function restoreBounds(saved: WindowState | undefined, workAreas: Rect[]): { bounds: Partial<Rect> & { width: number; height: number }; maximized: boolean } {
  if (!saved) return { bounds: { ...DEFAULT_SIZE }, maximized: false };
  const b = saved.bounds;
  let best: Rect | undefined;
  let bestArea = 0;
  for (const wa of workAreas) {
    const a = overlap(b, wa);
    if (a > bestArea) {
      bestArea = a;
      best = wa;
    }
  }
  if (!best || bestArea < 100 * 50) {
    return { bounds: { width: clamp(b.width, MIN.width, DEFAULT_SIZE.width), height: clamp(b.height, MIN.height, DEFAULT_SIZE.height) }, maximized: saved.maximized };
  }
  const width = clamp(b.width, MIN.width, best.width);
  const height = clamp(b.height, MIN.height, best.height);
  const x = clamp(b.x, best.x, best.x + best.width - width);
  const y = clamp(b.y, best.y, best.y + best.height - height);
  return { bounds: { x, y, width, height }, maximized: saved.maximized };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi < lo ? lo : hi, v));
}
