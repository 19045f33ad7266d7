// Walk slice: the packet walkthrough. The form (source, destination[:port], protocol), the presets
// filled from the bundle, the last walk and the hop being looked at, the graph pick mode that fills
// source then destination from two clicked nodes, and the reply: "Walk the reply" asks for the walk
// again with `reply: true` and shows the answer as a walk of its own (`walk` is always the walk shown,
// so the graph lights the reply's hops like the request's). Answers to an older request are dropped.
import type { Flow, Proto, WalkResult } from '../../../analysis/walk/types.ts';
import type { WalkPreset } from '../../../analysis/walk/presets.ts';
import { addressText, endpointText } from '../walk/model.ts';
import { addressProblem, parseAddress, type Address } from '../../../parsers/net/address.ts';
import { errorMessage, type SliceCreator } from './types.ts';

export interface WalkForm {
  src: string;
  /** IP or IP:port. */
  dst: string;
  proto: Proto;
}

export type PickTarget = 'src' | 'dst';
/** Which walk is shown: the packet asked for, or its reply. */
export type WalkSide = 'request' | 'reply';

export interface RunWalkOptions {
  /** Which hop to show first: the deciding one (from a finding), or the first. */
  focus?: 'deciding' | 'first';
}

export interface WalkSlice {
  walkForm: WalkForm;
  presets?: WalkPreset[];
  presetsError?: string;
  /** The walk shown: the request's, or its reply's when `walkSide` is 'reply'. */
  walk?: WalkResult;
  /** The request's walk (with `reply` once the reply was asked for). */
  walkRequest?: WalkResult;
  walkSide: WalkSide;
  /** The request the shown walk answers (for re-running it with another DIP). */
  walkFlow?: Flow;
  walkLoading: boolean;
  replyLoading: boolean;
  walkError?: string;
  hop: number;
  /** The request's hop that was looked at when the reply was opened (going back returns to it). */
  requestHop: number;
  /** Clicking graph nodes fills this field (then the other one). */
  picking?: PickTarget;
  setWalkForm(p: Partial<WalkForm>): void;
  loadPresets(): Promise<void>;
  /** Starts a walk from the form; returns an error message when the form cannot be walked. */
  walkFromForm(): Promise<string | undefined>;
  runWalk(flow: Flow, opts?: RunWalkOptions): Promise<void>;
  rerunWithDip(dip: string): Promise<void>;
  /** Shows the reply of the walk shown, walking it first when it was not yet asked for. */
  walkTheReply(): Promise<void>;
  /** Back from the reply to the request's walk, on the hop that was looked at. */
  showRequest(): void;
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

declare module './types.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges this slice into the store's type
  interface AppState extends WalkSlice {}
}

export const EMPTY_FORM: WalkForm = { src: '', dst: '', proto: 'tcp' };

export function formToFlow(f: WalkForm): Flow | string {
  const src = parseAddress(f.src);
  const dst = parseAddress(f.dst);
  // Every field's problem at once: fixing one should not reveal the next.
  const problems = [
    ...(src ? [] : [f.src.trim() ? `From: “${f.src.trim()}” is ${problemWords(f.src)}` : 'Choose a source']),
    ...(dst || (!f.src.trim() && !f.dst.trim()) ? [] : [f.dst.trim() ? `To: “${f.dst.trim()}” is ${problemWords(f.dst)} (an IP, IP:port, or [IPv6]:port)` : 'Choose a destination']),
  ];
  if (!src || !dst) return problems.join('; ');
  if (src.ip.includes(':') !== dst.ip.includes(':')) return 'Source and destination must both be IPv4 or both IPv6';
  const proto = f.proto;
  return {
    srcIp: src.ip,
    dstIp: dst.ip,
    proto,
    ...(dst.port !== undefined && proto !== 'icmp' ? { dstPort: dst.port } : {}),
    ...(src.port !== undefined && proto !== 'icmp' ? { srcPort: src.port } : {}),
  };
}

/** addressProblem's reason as the end of a sentence ("not an IP address", "port 70000 is out of range"). */
function problemWords(text: string): string {
  const p = addressProblem(text) ?? 'not an IP address';
  return /^not /.test(p) ? p : `not usable: ${p}`;
}

export function flowToForm(f: Flow): WalkForm {
  return { src: f.srcIp, dst: endpointText(f.dstIp, f.dstPort), proto: f.proto };
}

export const createWalkSlice: SliceCreator<WalkSlice> = (deps) => (set, get) => {
  let seq = 0;
  return {
    walkForm: EMPTY_FORM,
    walkLoading: false,
    replyLoading: false,
    walkSide: 'request',
    hop: 0,
    requestHop: 0,

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
        // The last walk was of other inputs: it no longer sits under these.
        seq++;
        set({ walkError: flow, walk: undefined, walkRequest: undefined, walkLoading: false });
        return flow;
      }
      await get().runWalk(flow);
      return undefined;
    },

    async runWalk(flow, opts = {}) {
      const b = get().bundle;
      if (!b) return;
      const mine = ++seq;
      set({ walkLoading: true, replyLoading: false, walkError: undefined, walkFlow: flow, picking: undefined, walkForm: flowToForm(flow) });
      try {
        const t = await deps.api.walk({ bundleId: b.id, ...flow });
        if (mine !== seq) return;
        const hop = opts.focus === 'deciding' ? Math.max(0, Math.min(t.deciding, t.hops.length - 1)) : 0;
        set({ walk: t, walkRequest: t, walkSide: 'request', requestHop: 0, hop, walkLoading: false });
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

    async walkTheReply() {
      const b = get().bundle;
      const req = get().walkRequest;
      const flow = get().walkFlow;
      if (!b || !req || !flow || get().walkSide === 'reply') return;
      const requestHop = get().hop;
      if (req.reply) {
        set({ walk: req.reply, walkSide: 'reply', requestHop, hop: 0 });
        return;
      }
      const mine = ++seq;
      set({ replyLoading: true, walkError: undefined });
      try {
        const t = await deps.api.walk({ bundleId: b.id, ...flow, reply: true });
        if (mine !== seq) return;
        if (!t.reply) {
          // Only a delivered or forwarded packet gets an answer.
          set({ replyLoading: false, walk: t, walkRequest: t, walkError: `No reply to walk: the packet was ${t.verdict}.` });
          return;
        }
        set({ walk: t.reply, walkRequest: t, walkSide: 'reply', requestHop, hop: 0, replyLoading: false });
      } catch (e) {
        if (mine !== seq) return;
        set({ replyLoading: false, walkError: errorMessage(e) });
      }
    },

    showRequest() {
      const req = get().walkRequest;
      if (!req || get().walkSide === 'request') return;
      set({ walk: req, walkSide: 'request', hop: Math.min(get().requestHop, Math.max(0, req.hops.length - 1)) });
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
      set({ walk: undefined, walkRequest: undefined, walkSide: 'request', requestHop: 0, walkFlow: undefined, walkLoading: false, replyLoading: false, walkError: undefined, hop: 0, picking: undefined });
    },

    resetWalk() {
      get().clearWalk();
      set({ walkForm: EMPTY_FORM, presets: undefined, presetsError: undefined });
    },
  };
};
