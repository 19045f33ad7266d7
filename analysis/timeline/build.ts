// Per pod sandbox, the CNI ADD as the logs tell it: the runtime's lines (containerd `begin cni setup`
// → `cni result`, kubelet) and the plugin's own (azure-vnet, azure-cns, sdnbridge/sdnoverlay,
// vpc-bridge, Calico, Antrea), each parsed into time, level and message (line.ts), named by step
// (steps.ts), joined to the sandbox and sorted by time.
//
// Joining a line to a sandbox, most certain first: the 64-hex sandbox ID in the line; Azure CNI's
// `<id[:8]>-eth0` endpoint name; the plugin process (azure-vnet and Calico run one process per call,
// so a pid between its ADD's start and end is that ADD); the pod name; for plugins that log one call
// after the other without a pid (vpc-bridge, sdnbridge), the ADD the line follows.
//
// Times: each file's lines keep their file order (a line printed with whole seconds is placed no
// earlier than the line before it in the same file), then files are merged by time. Offsets and gaps
// are therefore never negative; a gap measured on a whole-second line is marked approximate.
import { podOf as podNamedIn, type LogFile } from '../../parsers/logs/index.ts';
import { readLine, type TimedLine } from './line.ts';
import { familyOf, isRuntime, stepOf, type StepDef } from './steps.ts';
import type { SandboxTimeline, TimelineStep } from './types.ts';

interface Tagged extends TimedLine {
  def?: StepDef;
  /** Effective time (ms) after the per-file ordering, undefined without a time. */
  eff?: number;
}

/** How far apart two calls of one process may be and still be one call (pid reuse). */
const PID_WINDOW_MS = 120_000;

function podKey(p: { namespace?: string; name: string }): string {
  return `${p.namespace ?? ''}/${p.name}`;
}

function shortLabel(l: Tagged): string {
  if (l.def) return l.def.name;
  let s = l.message
    .replace(/\b[0-9a-f]{64}\b/g, '…')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '…')
    .replace(/^"|"$/g, '');
  const cut = s.search(/ (cni_args|with args|result=|container=|podsandboxid=|&Pod|\{)/);
  if (cut > 10) s = s.slice(0, cut);
  return s.length > 90 ? s.slice(0, 87) + '…' : s.trim();
}

/** The message, with the error the line carries as a field (zap `error`, logrus `error=`/`err=`). */
function messageOf(l: Tagged): string {
  const e = l.fields.error ?? l.fields.err;
  const m = e && e !== 'null' && e !== '<nil>' && !l.message.includes(e) ? `${l.message}: ${e}` : l.message;
  return m.length > 500 ? m.slice(0, 500) + '…' : m;
}

function clock(ms: number, withDate: boolean): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = ms - Math.floor(ms / 1000) * 1000;
  const t = `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(Math.floor(frac * 1000), 6)}`;
  return withDate ? `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${t}` : t;
}

/** klog prints no year: date its lines with the year of the dated lines of the same bundle. */
function fixYears(lines: Tagged[]): void {
  const dated = lines.find((l) => l.time?.dated);
  if (!dated?.time) return;
  const year = new Date(dated.time.ms).getUTCFullYear();
  for (const l of lines) {
    if (!l.time?.noYear) continue;
    const d = new Date(l.time.ms);
    l.time = { ...l.time, ms: Date.UTC(year, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()) + (l.time.ms % 1), dated: true, noYear: false };
  }
}

/** Keeps each file's order: a coarse time is placed at the latest moment it allows after the line before. */
function effectiveTimes(lines: Tagged[], tod: boolean): void {
  const byFile = new Map<string, Tagged[]>();
  for (const l of lines) byFile.set(l.file, [...(byFile.get(l.file) ?? []), l]);
  for (const list of byFile.values()) {
    let prev: number | undefined;
    for (const l of list.sort((a, b) => a.line - b.line)) {
      if (!l.time) continue;
      const t = tod ? ((l.time.ms % 86_400_000) + 86_400_000) % 86_400_000 : l.time.ms;
      let eff = t;
      if (prev !== undefined && prev > t && l.time.resolution >= 1000) eff = Math.min(prev, t + l.time.resolution - 1);
      l.eff = eff;
      prev = Math.max(prev ?? eff, eff);
    }
  }
}

export function buildTimelines(logs: LogFile[]): SandboxTimeline[] {
  let seq = 0;
  const all: Tagged[] = [];
  for (const f of logs) for (const ev of f.events) {
    const l: Tagged = readLine(ev, f, seq++);
    l.def = stepOf(l);
    all.push(l);
  }
  fixYears(all);
  // A console-wrapped paste continues a line on the next without a time: its IDs belong to the line above.
  const cont = new Set<Tagged>();
  for (const [i, l] of all.entries()) {
    const prev = all[i - 1];
    // Up to two lines apart: the log reader may have left out a continuation with nothing it looks for.
    if (!prev || l.time || l.def || prev.file !== l.file || l.line - prev.line > 3) continue;
    let k = i - 1;
    // Walk up over continuations already joined to the same owner.
    const joined = (j: number) => {
      const cur = all[j];
      const before = all[j - 1];
      return !!cur && !!before && cont.has(cur) && before.file === l.file;
    };
    while (joined(k)) k--;
    const owner = all[k];
    if (!owner?.time || owner.file !== l.file) continue;
    owner.ids = [...new Set([...owner.ids, ...l.ids])];
    owner.text = `${owner.text}${l.text}`.slice(0, 4000);
    owner.pod = owner.pod ?? podNamedIn(owner.text);
    cont.add(l);
  }
  const lines = all.filter((l) => !cont.has(l));

  // --- sandboxes and their pods -------------------------------------------------------------------
  const sandboxes = new Map<string, Tagged[]>();
  const podOf = new Map<string, { namespace?: string; name: string }>();
  // Sandboxes: the IDs on ADD lines (the runtime's and the plugins'), on any plugin line that names
  // its container by key, and on sandbox failures. On a line that names the sandbox by key
  // (ContainerID, containerId, container_id, K8S_POD_INFRA_CONTAINER_ID, podsandboxid) other IDs are
  // not sandboxes (dockershim's `Netns:container:<infra id>`).
  const KEYED = /(?:ContainerID[:=]\s?"?|"?containerId"?\s*[:=]\s*"|container_id:"|K8S_POD_INFRA_CONTAINER_ID=|podsandboxid=|podSandboxID="|sandbox \\?")([0-9a-f]{64})/g;
  const keyedIds = (l: Tagged) => [...l.text.matchAll(KEYED)].flatMap((m) => m[1] ?? []);
  const isAddLine = (l: Tagged) => !!l.def && (l.def.role !== 'step' || /sandbox|cni/i.test(l.message) || !isRuntime(l.def));
  for (const l of lines) {
    const keyed = keyedIds(l);
    if (!isAddLine(l) && !/sandbox/i.test(l.message) && !(keyed.length && familyOf(l) && !isRuntime({ by: familyOf(l)! } as StepDef))) continue;
    for (const id of keyed.length ? keyed : l.ids) if (!sandboxes.has(id)) sandboxes.set(id, []);
  }
  const byPrefix = new Map<string, string>();
  for (const id of sandboxes.keys()) byPrefix.set(id.slice(0, 8), id);
  for (const l of lines) {
    const only = l.ids.length === 1 ? l.ids[0] : undefined;
    if (only === undefined || !sandboxes.has(only)) continue;
    if (l.pod && !podOf.has(only)) podOf.set(only, l.pod);
    const gen = /generated id for sandbox name \\?"([\w.-]+?)_([\w.-]+?)_[0-9a-f-]{36}_\d+/.exec(l.text);
    if (gen?.[1]) podOf.set(only, { namespace: gen[2], name: gen[1] });
  }
  const sandboxesOfPod = new Map<string, string[]>();
  for (const [id, p] of podOf) sandboxesOfPod.set(podKey(p), [...(sandboxesOfPod.get(podKey(p)) ?? []), id]);
  const byPodName = (p: { namespace?: string; name: string }): string[] => sandboxesOfPod.get(podKey(p)) ?? [...sandboxesOfPod.entries()].find(([k]) => k.endsWith(`/${p.name}`))?.[1] ?? [];

  // --- plugin calls: pid-scoped (azure-vnet, Calico) or one after the other (no pid) ----------------
  const callOf = new Map<Tagged, string>();
  const groups = new Map<string, Tagged[]>();
  for (const l of lines) {
    if (!l.def && !l.pid) continue;
    if (isRuntime(l.def) || l.component === 'kubelet' || l.component === 'containerd' || l.component === 'antrea') continue;
    const k = l.pid !== undefined ? `${l.file}#${l.pid}` : `${l.file}#seq`;
    groups.set(k, [...(groups.get(k) ?? []), l]);
  }
  for (const [k, list] of groups) {
    const sequential = k.endsWith('#seq');
    let current: string | undefined;
    let startAt: number | undefined;
    const pending: Tagged[] = [];
    for (const l of list.sort((a, b) => a.line - b.line)) {
      const prefix = /\b([0-9a-f]{8})-eth\d\b/.exec(l.text)?.[1];
      const own = l.ids.find((id) => sandboxes.has(id)) ?? (prefix ? byPrefix.get(prefix) : undefined);
      // A call starts at its start line; in a per-call process (pid) the first line naming the sandbox
      // also tells which call the process serves when the start line is not in the excerpt.
      if (l.def?.role === 'start' || (!current && own && !sequential)) {
        current = own;
        startAt = l.time?.ms;
        if (current) for (const p of pending.splice(0)) if (startAt === undefined || p.time === undefined || Math.abs(startAt - p.time.ms) < 5000) callOf.set(p, current);
        pending.length = 0;
      } else if (!current) {
        // The end of a call whose start is not in the log: what came before it was that call's.
        if (l.def?.role === 'ok' || l.def?.role === 'fail') pending.length = 0;
        else pending.push(l);
        continue;
      }
      if (!sequential && startAt !== undefined && l.time && Math.abs(l.time.ms - startAt) > PID_WINDOW_MS) current = undefined;
      if (current) callOf.set(l, own ?? current);
      if (l.def?.role === 'ok' || l.def?.role === 'fail') {
        if (sequential) current = undefined;
      }
    }
  }

  // --- attach every line to its sandbox -----------------------------------------------------------
  const attached = new Set<Tagged>();
  const attach = (id: string, l: Tagged) => {
    sandboxes.get(id)!.push(l);
    attached.add(l);
  };
  for (const l of lines) {
    const ids = l.ids.filter((id) => sandboxes.has(id));
    if (ids.length) {
      for (const id of ids) attach(id, l);
      continue;
    }
    const short = /\b([0-9a-f]{8})-eth\d\b/.exec(l.text)?.[1];
    if (short && byPrefix.has(short)) {
      attach(byPrefix.get(short)!, l);
      continue;
    }
    const call = callOf.get(l);
    if (call) {
      attach(call, l);
      continue;
    }
    // A line naming only the pod (containerd's RunPodSandbox, "ADD command completed for pod X"): the
    // pod's sandbox whose start is nearest at or after the line (a pod may have had several attempts).
    const podName = /\bfor pod ([\w.-]+)/.exec(l.message)?.[1];
    const pod = l.pod ?? (podName ? { name: podName } : undefined);
    if (pod && (l.def || /RunPodSandbox|ADD command|CmdAdd|sandbox/i.test(l.message))) {
      const cands = byPodName(pod);
      if (!cands.length) continue;
      const t = l.time?.ms;
      const first = (id: string) => (sandboxes.get(id) ?? []).reduce((m, x) => Math.min(m, x.time?.ms ?? Infinity), Infinity);
      const best = t === undefined ? cands[0] : [...cands].sort((a, b) => Math.abs(first(a) - t) - Math.abs(first(b) - t))[0];
      if (best !== undefined) attach(best, l);
    }
  }
  void attached;

  // --- one timeline per sandbox -------------------------------------------------------------------
  const out: SandboxTimeline[] = [];
  for (const [id, raw] of sandboxes) {
    const uniq = [...new Map(raw.map((l) => [`${l.file}:${l.line}`, l])).values()];
    if (!uniq.length) continue;
    const dated = uniq.some((l) => l.time?.dated);
    const tod = uniq.some((l) => l.time?.todOnly) && dated;
    const todAll = uniq.every((l) => !l.time || l.time.todOnly);
    effectiveTimes(uniq, tod);
    const sorted = [...uniq].sort((a, b) => (a.eff !== undefined && b.eff !== undefined && a.eff !== b.eff ? a.eff - b.eff : a.seq - b.seq));
    const t0 = sorted.find((l) => l.eff !== undefined)?.eff;
    let prev: number | undefined;
    const steps: TimelineStep[] = sorted.map((l) => {
      const step: TimelineStep = {
        at: l.eff !== undefined && t0 !== undefined ? l.eff - t0 : undefined,
        gap: l.eff !== undefined && prev !== undefined ? l.eff - prev : undefined,
        label: shortLabel(l),
        step: l.def?.name,
        message: messageOf(l),
        level: l.level,
        // A generic log name (cni.log) says less than the line's own format (Calico, vpc-bridge, sdnbridge).
        component: l.component === 'cni' || l.component === 'other' ? (familyOf(l) ?? l.component) : l.component,
        plugin: !!l.def && !isRuntime(l.def) ? true : l.component !== 'kubelet' && l.component !== 'containerd' && l.component !== 'kube-proxy' && l.component !== 'other',
        resolutionMs: l.time?.resolution,
        file: l.file,
        line: l.line,
        text: l.text,
        clock: l.time ? clock(l.time.ms, !!l.time.dated && !tod && !todAll) : undefined,
        error: l.def?.role === 'fail' || l.level === 'error' || l.level === 'fatal',
      };
      if (l.eff !== undefined) prev = l.eff;
      return step;
    });
    const roles = sorted.map((l) => l.def?.role);
    const startIdx = roles.findIndex((r) => r === 'start');
    // The ADD ends at containerd's `cni result` when it logged one, else at the plugin's last verdict.
    const runtimeEnd = sorted.findIndex((l) => l.def?.by === 'containerd' && (l.def.role === 'ok' || l.def.role === 'fail'));
    let pluginEnd = -1;
    sorted.forEach((l, i) => {
      if ((l.def?.role === 'ok' || l.def?.role === 'fail') && !isRuntime(l.def)) pluginEnd = i;
    });
    const failIdx = sorted.findIndex((l) => l.def?.role === 'fail');
    const endIdx = runtimeEnd >= 0 ? runtimeEnd : pluginEnd >= 0 ? pluginEnd : failIdx >= 0 ? failIdx : -1;
    const addStart = startIdx >= 0 ? startIdx : 0;
    const addEnd = endIdx >= addStart ? endIdx : undefined;
    const addEndAt = addEnd !== undefined ? steps[addEnd]?.at : undefined;
    const addStartAt = steps[addStart]?.at;
    const add = addEndAt !== undefined && addStartAt !== undefined ? addEndAt - addStartAt : undefined;
    const failed = sorted.some((l) => l.def?.role === 'fail');
    const ok = sorted.some((l) => l.def?.role === 'ok');
    out.push({
      sandboxId: id,
      pod: podOf.get(id) ?? uniq.find((l) => l.pod)?.pod,
      steps,
      total: (() => {
        const last = [...steps].reverse().find((s) => s.at !== undefined);
        return last?.at;
      })(),
      add,
      addStart,
      addEnd,
      outcome: failed ? 'failed' : ok ? 'succeeded' : 'unknown',
      longestGap: longestGap(steps, addStart, addEnd ?? steps.length - 1),
      plugin: [...new Set(sorted.filter((l) => l.def && !isRuntime(l.def)).map((l) => l.def!.by))][0],
      timeOfDayOnly: tod || undefined,
    });
  }
  return out.sort((a, b) => (b.add ?? b.total ?? -1) - (a.add ?? a.total ?? -1));
}

/**
 * The largest gap between two consecutive steps of the plugin's own log inside the ADD (where the
 * plugin spent the time), else between any two steps of the ADD (a plugin that logs nothing).
 */
function longestGap(steps: TimelineStep[], from: number, to: number): SandboxTimeline['longestGap'] {
  const pick = (only: (s: TimelineStep) => boolean) => {
    let best: SandboxTimeline['longestGap'];
    let prev: { s: TimelineStep; at: number; i: number } | undefined;
    for (let i = from; i <= to; i++) {
      const s = steps[i];
      if (!s) break;
      if (!only(s) || s.at === undefined) continue;
      if (prev) {
        const ms = s.at - prev.at;
        if (!best || ms > best.ms) {
          const approx = (prev.s.resolutionMs ?? 1) >= 1000 || (s.resolutionMs ?? 1) >= 1000;
          best = { ms, from: prev.s.label, to: s.label, fromIndex: prev.i, toIndex: i, plugin: s.plugin && prev.s.plugin, approximate: approx || undefined };
        }
      }
      prev = { s, at: s.at, i };
    }
    return best;
  };
  const plugin = pick((s) => !!s.plugin);
  return plugin && plugin.ms > 0 ? plugin : (pick(() => true) ?? plugin);
}

/** `2.495 s` / `73 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${Math.round(ms * 10) / 10} ms`;
}

export interface AddFailure {
  pod?: { namespace?: string; name: string };
  sandboxes: string[];
  count: number;
  /** The first failure: the plugin's own line when there is one, else the runtime's. */
  first: TimelineStep;
  last: TimelineStep;
}

/** Failed ADDs grouped by pod (one entry per pod, however many attempts), worst first. */
export function addFailures(timelines: SandboxTimeline[]): AddFailure[] {
  const groups = new Map<string, SandboxTimeline[]>();
  for (const t of timelines) {
    if (t.outcome !== 'failed') continue;
    const k = t.pod ? podKey(t.pod) : `sandbox:${t.sandboxId}`;
    groups.set(k, [...(groups.get(k) ?? []), t]);
  }
  const out: AddFailure[] = [];
  for (const list of groups.values()) {
    const errs = list.flatMap((t) => t.steps.filter((s) => s.error));
    if (!errs.length) continue;
    const byTime = [...errs].sort((a, b) => (a.clock ?? '').localeCompare(b.clock ?? ''));
    // The earliest attempt by time, else by its first line in the logs.
    const key = (t: SandboxTimeline) => `${t.steps[0]?.clock ?? ''}|${t.steps[0]?.file ?? ''}|${String(t.steps[0]?.line ?? 0).padStart(9, '0')}`;
    const firstAttempt = list.reduce((a, b) => (key(a) <= key(b) ? a : b));
    const firstErrs = firstAttempt.steps.filter((s) => s.error);
    const first = firstErrs.find((s) => s.plugin) ?? firstErrs[0] ?? byTime[0];
    const last = byTime.at(-1);
    // errs is not empty, so byTime has a first and a last.
    if (!first || !last) continue;
    out.push({ pod: list[0]?.pod, sandboxes: list.map((t) => t.sandboxId), count: list.length, first, last });
  }
  return out.sort((a, b) => b.count - a.count);
}
