// Walk slice: the packet walkthrough. The form (source, destination[:port], protocol), the presets
// filled from the bundle, the last walk and the hop being looked at, and the graph pick mode that
// fills source then destination from two clicked nodes. Answers to an older request are dropped.
import type { Flow, Proto, WalkResult } from '../../../analysis/walk/types.ts';
import type { WalkPreset } from '../../../analysis/walk/presets.ts';
import { addressText } from '../walk/model.ts';
import { parseAddress, type Address } from '../../../parsers/net/address.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface WalkForm {
  src: string;
  /** IP or IP:port. */
  dst: string;
  proto: Proto;
}

export type PickTarget = 'src' | 'dst';

export interface RunWalkOptions {
  /** Which hop to show first: the deciding one (from a finding), or the first. */
  focus?: 'deciding' | 'first';
}

export interface WalkSlice {
  walkForm: WalkForm;
  presets?: WalkPreset[];
  presetsError?: string;
  walk?: WalkResult;
  /** The request the shown walk answers (for re-running it with another DIP). */
  walkFlow?: Flow;
  walkLoading: boolean;
  walkError?: string;
  hop: number;
  /** Clicking graph nodes fills this field (then the other one). */
  picking?: PickTarget;
  setWalkForm(p: Partial<WalkForm>): void;
  loadPresets(): Promise<void>;
  /** Starts a walk from the form; returns an error message when the form cannot be walked. */
  walkFromForm(): Promise<string | undefined>;
  runWalk(flow: Flow, opts?: RunWalkOptions): Promise<void>;
  rerunWithDip(dip: string): Promise<void>;
  setHop(i: number): void;
  stepHop(delta: number): void;
  setPicking(p: PickTarget | undefined): void;
  /** A graph node was picked: fills the field being picked and moves on. */
  pickAddress(a: Address): void;
  /** Opens the walk panel with a source filled in (the inspector's “Walk from here”). */
  walkFrom(ip: string): void;
  /** Leaves the walk: the graph stops showing the path. */
  clearWalk(): void;
  resetWalk(): void;
}

export const EMPTY_FORM: WalkForm = { src: '', dst: '', proto: 'tcp' };

export function formToFlow(f: WalkForm): Flow | string {
  const src = parseAddress(f.src);
  if (!src) return f.src.trim() ? `“${f.src.trim()}” is not an IPv4 address` : 'Choose a source';
  const dst = parseAddress(f.dst);
  if (!dst) return f.dst.trim() ? `“${f.dst.trim()}” is not an IPv4 address (optionally with :port)` : 'Choose a destination';
  const proto = f.proto;
  return {
    srcIp: src.ip,
    dstIp: dst.ip,
    proto,
    ...(dst.port !== undefined && proto !== 'icmp' ? { dstPort: dst.port } : {}),
    ...(src.port !== undefined && proto !== 'icmp' ? { srcPort: src.port } : {}),
  };
}

export function flowToForm(f: Flow): WalkForm {
  return { src: f.srcIp, dst: `${f.dstIp}${f.dstPort !== undefined ? `:${f.dstPort}` : ''}`, proto: f.proto };
}

export const createWalkSlice: SliceCreator<WalkSlice> = (deps) => (set, get) => {
  let seq = 0;
  return {
    walkForm: EMPTY_FORM,
    walkLoading: false,
    hop: 0,

    setWalkForm(p) {
      set({ walkForm: { ...get().walkForm, ...p } });
    },

    async loadPresets() {
      const b = get().bundle;
      if (!b) return;
      try {
        const presets = await deps.api.walkPresets({ bundleId: b.id });
        if (get().bundle?.id === b.id) set({ presets, presetsError: undefined });
      } catch (e) {
        if (get().bundle?.id === b.id) set({ presets: [], presetsError: errorMessage(e) });
      }
    },

    async walkFromForm() {
      const flow = formToFlow(get().walkForm);
      if (typeof flow === 'string') {
        set({ walkError: flow });
        return flow;
      }
      await get().runWalk(flow);
      return undefined;
    },

    async runWalk(flow, opts = {}) {
      const b = get().bundle;
      if (!b) return;
      const mine = ++seq;
      set({ walkLoading: true, walkError: undefined, walkFlow: flow, picking: undefined, walkForm: flowToForm(flow) });
      try {
        const t = await deps.api.walk({ bundleId: b.id, ...flow });
        if (mine !== seq) return;
        const hop = opts.focus === 'deciding' ? Math.max(0, Math.min(t.deciding, t.hops.length - 1)) : 0;
        set({ walk: t, hop, walkLoading: false });
      } catch (e) {
        if (mine !== seq) return;
        set({ walkLoading: false, walkError: errorMessage(e) });
      }
    },

    async rerunWithDip(dip) {
      const f = get().walkFlow;
      if (!f) return;
      const hop = get().hop;
      await get().runWalk({ ...f, dip });
      // Stay on the load-balancing hop: that is where the user chose the backend.
      const t = get().walk;
      if (t && hop < t.hops.length) set({ hop });
    },

    setHop(i) {
      const n = get().walk?.hops.length ?? 0;
      if (!n) return;
      set({ hop: Math.max(0, Math.min(n - 1, i)) });
    },

    stepHop(delta) {
      get().setHop(get().hop + delta);
    },

    setPicking(p) {
      set({ picking: p });
    },

    pickAddress(a) {
      const target = get().picking ?? (get().walkForm.src ? 'dst' : 'src');
      const text = addressText(a);
      if (target === 'src') {
        set({ walkForm: { ...get().walkForm, src: a.ip }, picking: 'dst' });
      } else {
        set({ walkForm: { ...get().walkForm, dst: text, ...(a.proto ? { proto: a.proto } : {}) }, picking: undefined });
      }
    },

    walkFrom(ip) {
      set({ walkForm: { ...get().walkForm, src: ip, dst: get().walkForm.src === ip ? get().walkForm.dst : '' }, picking: 'dst', panel: 'walk', inspectorOpen: true, view: 'topology' });
    },

    clearWalk() {
      seq++;
      set({ walk: undefined, walkFlow: undefined, walkLoading: false, walkError: undefined, hop: 0, picking: undefined });
    },

    resetWalk() {
      get().clearWalk();
      set({ walkForm: EMPTY_FORM, presets: undefined, presetsError: undefined });
    },
  };
};
