// Known error messages in kubelet/containerd/CNI logs, failed CNI ADDs (one finding per pod, however
// many attempts), and slow CNI ADDs named by the plugin step where the time went (analysis/timeline).
import type { Finding, FindingEvidence } from '../findings/types.ts';
import type { Check } from './types.ts';
import { KNOWN_ERRORS, type KnownError } from './known-errors.ts';
import { addFailures, buildTimelines, formatMs, type TimelineStep } from '../timeline/index.ts';

/** An ADD slower than this is reported (the deep dive's 5 s was the problem worth hunting). */
export const SLOW_ADD_MS = 3000;

const cut = (s: string, n = 500) => (s.length > n ? s.slice(0, n) + '…' : s);
const evOf = (s: TimelineStep): FindingEvidence => ({ file: s.file, line: s.line, text: cut(s.text) });

/** The most specific known error a message matches (the generic "ADD failed" last). */
function knownFor(texts: string[]): KnownError | undefined {
  const specific = KNOWN_ERRORS.filter((k) => k.id !== 'log-cni-add-failed');
  for (const k of specific) if (texts.some((t) => k.test.test(t))) return k;
  return KNOWN_ERRORS.find((k) => k.id === 'log-cni-add-failed');
}

export const logsCheck: Check = {
  id: 'logs',
  ids: [...KNOWN_ERRORS.map((k) => k.id), 'cni-add-slow'],
  title: 'Component logs',
  platforms: 'any',
  assumes: 'the messages of kubelet, containerd and the CNI plugins mean the same on every node',
  run(ctx) {
    const out: Finding[] = [];
    const logs = ctx.m.logs ?? [];
    if (!logs.length) return out;
    const timelines = buildTimelines(logs);
    // Failed ADDs: one finding per pod with the number of attempts and the first error.
    const inFailure = new Set<string>();
    for (const f of addFailures(timelines)) {
      const group = timelines.filter((t) => f.sandboxes.includes(t.sandboxId));
      for (const t of group) for (const s of t.steps) inFailure.add(`${s.file}:${s.line}`);
      const errTexts = group.flatMap((t) => t.steps.filter((s) => s.error).map((s) => s.text));
      // Named after the first error; the others are listed.
      const k = knownFor([f.first.text]) ?? knownFor(errTexts)!;
      const others = [...new Set(group.flatMap((t) => t.steps.filter((s) => s.error).map((s) => knownFor([s.text])?.title)).filter((x): x is string => !!x && x !== k.title))];
      const who = f.pod ? `${f.pod.namespace ? f.pod.namespace + '/' : ''}${f.pod.name}` : `sandbox ${(f.sandboxes[0] ?? '').slice(0, 12)}…`;
      const firstMsg = cut(errorCore(f.first.message ?? f.first.text), 400);
      out.push({
        id: k.id,
        severity: 'error',
        area: 'logs',
        title: `${k.title}: ${who}${f.count > 1 ? `, ${f.count} attempts` : ''}`,
        explanation: `The CNI ADD for ${who} failed ${f.count === 1 ? 'once' : `${f.count} times (${f.count} sandboxes)`}. The first error, from ${f.first.plugin ? 'the plugin' : f.first.component} (${f.first.file}:${f.first.line}): "${firstMsg}".${f.count > 1 ? ` The last is at ${f.last.file}:${f.last.line}.` : ''}${others.length ? ` Other attempts also show: ${others.join('; ')}.` : ''} ${k.cause}`,
        fix: k.fix,
        objects: [...(f.pod ? [who] : []), ...f.sandboxes.slice(0, 10)],
        evidence: [evOf(f.first), ...(f.last !== f.first ? [evOf(f.last)] : [])],
      });
    }
    // Known messages outside a failed ADD (the runtime's own state, config reload errors, …).
    type Hit = { f: (typeof logs)[number]; e: (typeof logs)[number]['events'][number] };
    const hitsOf = new Map<KnownError, Hit[]>();
    for (const k of KNOWN_ERRORS) hitsOf.set(k, logs.flatMap((f) => f.events.filter((e) => k.test.test(e.text) && !inFailure.has(`${f.file}:${e.line}`)).map((e) => ({ f, e }))));
    // A line cut by a paste before its HNS code ("…hcnCreateEndpoint failed in Win32: An address provided")
    // is the same error as the whole line it starts like: it joins that code's finding instead of
    // making a generic "HNS returned an error" of its own.
    const generic = KNOWN_ERRORS.find((k) => k.id === 'log-hns-error')!;
    const coded = KNOWN_ERRORS.filter((k) => /^log-(hns|win32)-/.test(k.id) && k !== generic);
    const strip = (m: string) => m.replace(/\s+/g, ' ').trim();
    hitsOf.set(generic, (hitsOf.get(generic) ?? []).filter((h) => {
      const msg = strip(h.e.message);
      if (msg.length < 24) return true;
      const whole = coded.find((k) => (hitsOf.get(k) ?? []).some((x) => x.e !== h.e && strip(x.e.message).startsWith(msg)));
      if (!whole) return true;
      hitsOf.get(whole)!.push(h);
      return false;
    }));
    for (const k of KNOWN_ERRORS) {
      const hits = (hitsOf.get(k) ?? []).sort((a, b) => (a.f === b.f ? a.e.line - b.e.line : logs.indexOf(a.f) - logs.indexOf(b.f)));
      const [firstHit] = hits;
      if (!firstHit) continue;
      // One known error should not also be reported as the generic ADD failure.
      if (k.id === 'log-cni-add-failed') {
        const specific = KNOWN_ERRORS.filter((x) => x.id !== k.id);
        const rest = hits.filter(({ e }) => !specific.some((x) => x.test.test(e.text)));
        if (!rest.length) continue;
        hits.splice(0, hits.length, ...rest);
      }
      const lastHit = hits.at(-1) ?? firstHit;
      const pods = [...new Set(hits.map(({ e }) => (e.pod ? `${e.pod.namespace ? e.pod.namespace + '/' : ''}${e.pod.name}` : '')).filter(Boolean))];
      out.push({
        id: k.id,
        severity: 'error',
        area: 'logs',
        title: `${k.title} (${hits.length} line${hits.length > 1 ? 's' : ''}${pods.length ? `, ${pods.slice(0, 3).join(', ')}${pods.length > 3 ? ' …' : ''}` : ''})`,
        explanation: `${k.cause} First seen in ${firstHit.f.file}:${firstHit.e.line}${hits.length > 1 ? `, last in ${lastHit.f.file}:${lastHit.e.line}` : ''}.`,
        fix: k.fix,
        objects: pods.length ? pods : [...new Set(hits.flatMap(({ e }) => e.ids))].slice(0, 10),
        evidence: [firstHit, ...(hits.length > 1 ? [lastHit] : [])].map(({ f, e }) => ({ file: f.file, line: e.line, text: cut(e.text) })),
      });
    }
    // Slow ADDs, slowest first: where the plugin spent the time.
    for (const t of timelines) {
      if (t.outcome === 'failed' || t.add === undefined || t.add < SLOW_ADD_MS || !t.longestGap) continue;
      const g = t.longestGap;
      const from = t.steps[g.fromIndex];
      const to = t.steps[g.toIndex];
      // The gap's ends are indices into these steps (timeline/build.ts longestGap).
      if (!from || !to) continue;
      const who = t.pod ? `${t.pod.namespace ? t.pod.namespace + '/' : ''}${t.pod.name}` : t.sandboxId.slice(0, 12);
      const about = g.approximate ? 'about ' : '';
      const gapText = g.approximate ? `${Math.round(g.ms / 1000)} s` : formatMs(g.ms);
      const where = g.plugin ? `inside the plugin (${t.plugin ?? to.component}), ` : t.plugin ? '' : 'the plugin writes no log of its own, so only the runtime\'s lines frame it: ';
      out.push({
        id: 'cni-add-slow',
        severity: 'warning',
        area: 'logs',
        title: `CNI ADD for ${who} took ${formatMs(t.add)}; ${about}${gapText} between "${g.from}" and "${g.to}"`,
        explanation: `The ADD of sandbox ${t.sandboxId.slice(0, 12)}… took ${formatMs(t.add)} from ${t.steps[t.addStart ?? 0]?.label ?? 'the first step'} to ${t.steps.at(t.addEnd ?? -1)?.label ?? 'the last step'}. The largest gap is ${where}${about}${gapText} between "${from.message ?? from.label}" (${from.file}:${from.line}) and "${to.message ?? to.label}" (${to.file}:${to.line}): that is where the time went.${g.approximate ? ' One of the two lines has whole-second times, so the gap is only known to a second.' : ''} The pod's network is not ready until ADD returns, so the pod starts late (and may fail readiness probes).`,
        fix: slowFix(t.plugin, g.to),
        objects: [t.sandboxId, ...(t.pod ? [who] : [])],
        evidence: [from, to].map(evOf),
      });
    }
    return out;
  },
};

/** The error itself, without the runtime's wrapping (`RunPodSandbox for &PodSandboxMetadata{…} failed: failed to setup network for sandbox "<id>": …`). */
function errorCore(m: string): string {
  return m
    .replace(/^RunPodSandbox for &PodSandboxMetadata\{[^}]*\}\s*failed:?\s*/i, '')
    .replace(/^.*?failed to setup network for sandbox \\?"[0-9a-f]{64}\\?":\s*/i, '')
    .replace(/^plugin type=\\?"[\w.-]+\\?"(?: name=\\?"[\w.-]+\\?")? failed \(add\):\s*/i, '');
}

function slowFix(plugin: string | undefined, to: string): string {
  // windows-container-networking (win-bridge, win-overlay, sdnbridge, sdnoverlay, nat) calls its IPAM
  // delegate between "Creating a new Endpoint" and "IPAM plugin returned result" (analysis/timeline/steps.ts).
  if (/^wincni: IPAM result$/.test(to)) return 'The plugin was waiting for its IPAM plugin (the `ipam.type` of the CNI config, host-local on Flannel and nat): the HNS endpoint is created only after the IPAM plugin returns. Check that the IPAM plugin is in the CNI bin folder and runs quickly on its own, and whether its store of reserved addresses is large or locked by another call.';
  if (/HCN endpoint|HNS endpoint|endpoint attached/i.test(to)) return 'HNS took the time to create or attach the endpoint: look at the Microsoft-Windows-Host-Network-Service-Admin event log and HNS CPU at that moment (many endpoints or load balancers make every HNS call slower); check that no other agent holds HNS busy.';
  if (plugin === 'antrea') return 'In the Windows CNI deep dive the gap between "Configuring IP address" and "Adding OVS port" came from PowerShell `Get-NetAdapter` calls used to wait for the container vNIC; raise the agent\'s log level (klog -v) around that call, or profile it (go pprof).';
  if (/lock/i.test(to)) return 'Calico serialises CNI calls with a network lock: another ADD/DEL held it. Look for slow calls just before this one.';
  if (/azure-cns|IP received/i.test(to)) return 'azure-cns took the time to hand out the IP: check azure-cns.log at that moment and the NodeNetworkConfig of the node (IP pool exhausted or scaling).';
  return 'Look at what the plugin does between these two steps (its log level can usually be raised), and at HNS at that time (the Host-Network-Service event log).';
}
