// The CNI timeline as shown (renderer/src/findings/timeline-rows.ts): slowest ADD first, offsets from
// the ADD's start that are never negative, "about" on whole-second lines, messages read out of their
// log format. Steps are written by hand in the shapes analysis/timeline/build.ts gives, the lines
// modelled on the bundle fixtures' azure-vnet.log (whole seconds), kubelet.log (klog structured
// messages) and antrea-agent.log (microseconds).
import { describe, expect, it } from 'vitest';
import type { SandboxTimeline, TimelineStep } from '../../../analysis/timeline/types.ts';
import { afterAdd, afterAddText, durationText, longestGapText, messageParts, nameParts, offsetText, sandboxDuration, stepRows, timelineOrder } from '../../../renderer/src/findings/timeline-rows.ts';

const step = (extra: Partial<TimelineStep>): TimelineStep => ({ label: 'x', component: 'azure-cni', file: 'azure-vnet.log', line: 1, text: '', ...extra });

function sandbox(id: string, extra: Partial<SandboxTimeline>): SandboxTimeline {
  return { sandboxId: id.padEnd(64, '0'), outcome: 'succeeded', steps: [], ...extra };
}

// Azure CNI's log has whole seconds; kubelet's line before the ADD has microseconds.
const azure = sandbox('c3136c3d', {
  pod: { namespace: 'default', name: 'sample-win-app-4kq9s' },
  plugin: 'azure-vnet',
  steps: [
    step({ at: 0, component: 'kubelet', plugin: false, resolutionMs: 0.001, message: '"RunPodSandbox from runtime service" pod="default/sample-win-app-4kq9s"', level: 'info', file: 'kubelet.log' }),
    step({ at: 800, gap: 800, step: 'azure-vnet: Processing ADD command', plugin: true, resolutionMs: 1000, clock: '2025-03-14 07:14:01.000000', message: '[cni-net] Processing ADD command with args {ContainerID:c3136c3d1026607ceb036637134b2e8e5aeec2d0a7b7958a9b248840b1c1c1c1}' }),
    step({ at: 1800, gap: 1000, plugin: true, resolutionMs: 1000, message: '[cni-net] Creating endpoint c3136c3d-eth0 in network azure.' }),
    step({ at: 2800, gap: 1000, step: 'azure-vnet: ADD command completed', plugin: true, resolutionMs: 1000, message: '[cni-net] ADD command completed for pod sample-win-app-4kq9s' }),
    step({ label: 'no time', message: 'a continuation line without a time' }),
  ],
  addStart: 1,
  addEnd: 3,
  add: 2000,
  longestGap: { ms: 1000, from: 'azure-vnet: Processing ADD command', to: '[cni-net] Creating endpoint c3136c3d-eth0 in network azure.', fromIndex: 1, toIndex: 2, plugin: true, approximate: true },
});

const antrea = sandbox('db6cqff', {
  pod: { namespace: 'default', name: 'db-6cqff' },
  plugin: 'antrea',
  steps: [
    step({ at: 0, component: 'antrea', plugin: true, resolutionMs: 0.001, step: 'antrea: CmdAdd', message: 'Received CmdAdd request', level: 'info' }),
    step({ at: 2463.4, gap: 2463.4, component: 'antrea', plugin: true, resolutionMs: 0.001, step: 'antrea: configuring the IP address', message: 'Configured IP address for container', level: 'info' }),
    step({ at: 4958.4, gap: 2495, component: 'antrea', plugin: true, resolutionMs: 0.001, step: 'antrea: adding the OVS port', message: 'Added OVS port', level: 'warning' }),
  ],
  addStart: 0,
  addEnd: 2,
  add: 4958.4,
  longestGap: { ms: 2495, from: 'antrea: configuring the IP address', to: 'antrea: adding the OVS port', fromIndex: 1, toIndex: 2, plugin: true },
});

describe('CNI timeline rows', () => {
  it('lists the slowest ADD first, whatever its outcome, and those without times last', () => {
    const fast = sandbox('fast', { pod: { name: 'fast' }, outcome: 'failed', steps: [step({ at: 0 }), step({ at: 10 })], add: 10, addStart: 0, addEnd: 1 });
    const untimed = sandbox('untimed', { pod: { name: 'untimed' }, steps: [step({ at: 0 })] });
    expect(timelineOrder([fast, untimed, azure, antrea]).map((t) => t.pod?.name)).toEqual(['db-6cqff', 'sample-win-app-4kq9s', 'fast', 'untimed']);
  });

  it('ranks a sandbox by its ADD and the wait after it: a 2 s ADD whose pod waited 39 s more comes before a 4 s ADD', () => {
    // The audit's AKS node: every azure-vnet ADD took "about 2 s", but kubelet created one pod's sandbox 41 s after its ADD began.
    const waited = sandbox('1b0e43cc', {
      pod: { namespace: 'payments', name: 'win-api-xm2lq' },
      steps: [step({ at: 0, resolutionMs: 1000, label: 'azure-vnet: Processing ADD command' }), step({ at: 2000, resolutionMs: 1000, label: 'azure-vnet: ADD command completed' }), step({ at: 40780, component: 'kubelet', label: 'Created PodSandbox for pod', file: 'kubelet.log' })],
      add: 2000, addStart: 0, addEnd: 1,
    });
    const slowAdd = sandbox('aa', { pod: { name: 'slow-add' }, steps: [step({ at: 0 }), step({ at: 4000 })], add: 4000, addStart: 0, addEnd: 1 });
    expect(timelineOrder([slowAdd, waited]).map((t) => t.pod?.name)).toEqual(['win-api-xm2lq', 'slow-add']);
    expect(afterAdd(waited)?.ms).toBe(38780);
    expect(afterAddText(waited)).toBe('Then about 39 s after the ADD ended until “Created PodSandbox for pod” (kubelet): the pod waited outside the CNI plugin');
    // A wait no longer than the ADD is not called out, nor the time after an ADD that failed.
    expect(afterAdd(slowAdd)).toBeUndefined();
    expect(afterAdd({ ...waited, outcome: 'failed' })).toBeUndefined();
  });

  it('gives no duration to an ADD whose end is not logged (not the milliseconds between its first lines)', () => {
    const open = sandbox('bb', { steps: [step({ at: 0 }), step({ at: 1 })], addStart: 0, outcome: 'unknown' });
    expect(sandboxDuration(open)).toBeUndefined();
  });

  it('measures the ADD from its start to its end, "about" when the plugin logs whole seconds', () => {
    expect(sandboxDuration(antrea)).toEqual({ ms: 4958.4, approximate: false });
    expect(sandboxDuration(azure)).toEqual({ ms: 2000, approximate: true });
    expect(durationText(2000, true)).toBe('about 2 s');
    expect(durationText(400, true)).toBe('under 1 s');
    expect(durationText(4958.4, false)).toBe('4.958 s');
    expect(sandboxDuration(sandbox('one', { steps: [step({ at: 0 })] }))).toBeUndefined();
  });

  it('gives offsets from the ADD’s start, never negative: a line before the ADD says so', () => {
    const rows = stepRows(azure);
    expect(rows.map((r) => r.offset)).toEqual(['before the ADD', 'start', 'about +1 s', 'about +2 s', '–']);
    expect(rows.map((r) => r.gap)).toEqual(['', 'under 1 s', 'about 1 s', 'about 1 s', '']);
    expect(rows.map((r) => r.inAdd)).toEqual([false, true, true, true, false]);
    expect(stepRows(antrea).map((r) => r.offset)).toEqual(['start', '+2.463 s', '+4.958 s']);
    expect(offsetText(2463.4, false)).toBe('+2.463 s');
    expect(offsetText(0, false)).toBe('+0 ms');
    expect(offsetText(300, true)).toBe('within 1 s');
    // Every offset shown is a time after the start or says it is before it.
    for (const t of [azure, antrea]) for (const r of stepRows(t)) expect(r.offset).not.toMatch(/−|-\d/);
  });

  it('shows the message read out of its format, the named step above it, the level in words', () => {
    const rows = stepRows(azure);
    expect(rows[0]).toMatchObject({ label: 'RunPodSandbox from runtime service', fields: [['pod', 'default/sample-win-app-4kq9s']], level: 'info', plugin: false });
    expect(rows[1].label).toBe('azure-vnet: Processing ADD command');
    // The dated clock, without digits a whole-second log does not have.
    expect(rows[1].clock).toBe('2025-03-14 07:14:01');
    // The container ID is shortened the way crictl prints it.
    expect(rows[1].detail).toBe('[cni-net] Processing ADD command with args {ContainerID:c3136c3d1026…}');
    expect(rows[2]).toMatchObject({ label: '[cni-net] Creating endpoint c3136c3d-eth0 in network azure.', detail: undefined });
    expect(stepRows(antrea)[2].level).toBe('warning');
  });

  it('never shows a zap JSON line raw', () => {
    expect(messageParts('{"level":"info","ts":"2025-03-14T07:14:02.123Z","msg":"Created endpoint","containerID":"c3136c3d1026607ceb036637134b2e8e5aeec2d0a7b7958a9b248840b1c1c1c1","ifName":"eth0"}')).toEqual({
      text: 'Created endpoint',
      fields: [
        ['containerID', 'c3136c3d1026…'],
        ['ifName', 'eth0'],
      ],
    });
    expect(messageParts('{not json}')).toEqual({ text: '{not json}', fields: [] });
    expect(messageParts('"Failed to create sandbox" err="hcs: \\"access denied\\"" pod="a/b"')).toEqual({ text: 'Failed to create sandbox', fields: [['err', 'hcs: "access denied"'], ['pod', 'a/b']] });
    expect(messageParts('plain text')).toEqual({ text: 'plain text', fields: [] });
    // containerd's logrus line and its `cni result: {…}`: the words, the document folded out of them.
    expect(messageParts('level=debug msg="begin cni setup" podsandboxid=abd08d33267a')).toEqual({ text: 'begin cni setup', fields: [['podsandboxid', 'abd08d33267a']] });
    expect(messageParts('cni result: {"Interfaces":{"eth0":{"Mac":""}},"DNS":[{}]}')).toEqual({ text: 'cni result: {…}', fields: [], json: '{\n  "Interfaces": {\n    "eth0": {\n      "Mac": ""\n    }\n  },\n  "DNS": [\n    {}\n  ]\n}' });
    // Cut by the log: kept as written for whoever opens it, folded in the text.
    expect(messageParts('cni result: {"Interfaces":{"eth0":{"IPConfigs":null,"Ma…')).toEqual({ text: 'cni result: {…}', fields: [], json: '{"Interfaces":{"eth0":{"IPConfigs":null,"Ma…' });
    // A quoted value the log cut (lines are kept up to 500 characters) keeps what is there.
    expect(messageParts('level=debug msg="Sandbox config &PodSandboxConfig{Metadata:&PodSandboxMetadata{Name:mytest,Uid:0ee0…')).toEqual({ text: 'Sandbox config &PodSandboxConfig{Metadata:&PodSandboxMetadata{Name:mytest,Uid:0ee0…', fields: [] });
    expect(messageParts('"Error syncing pod, skipping" err="failed to \\"CreatePodSandbox\\" for \\"mytest…').fields).toEqual([['err', 'failed to "CreatePodSandbox" for "mytest…']]);
    // Braces that are no JSON stay words.
    expect(messageParts('RunPodSandbox for &PodSandboxMetadata{Name:mytest,Attempt:0,}').text).toBe('RunPodSandbox for &PodSandboxMetadata{Name:mytest,Attempt:0,}');
  });

  it('names the longest gap, approximate on whole seconds, in the plugin’s own log', () => {
    expect(longestGapText(antrea)).toBe('Longest gap 2.495 s between “antrea: configuring the IP address” and “antrea: adding the OVS port”, in the plugin’s own log (antrea)');
    expect(longestGapText(azure)).toBe('Longest gap about 1 s between “azure-vnet: Processing ADD command” and “[cni-net] Creating endpoint c3136c3d-eth0 in network azure.”, in the plugin’s own log (azure-vnet)');
    expect(longestGapText(sandbox('x', {}))).toBeUndefined();
  });
});

describe('a timeline row’s name in a narrow row', () => {
  it('keeps the end that tells pods of one deployment apart, the head cut first', () => {
    const a = nameParts('default/sample-win-app-6c8d9f5b7-x2kqz');
    const b = nameParts('default/sample-win-app-6c8d9f5b7-p9zlm');
    expect(a).toEqual({ head: 'default/sample-win-app-6c8d9f5b7', tail: '-x2kqz' });
    expect(a.tail).not.toBe(b.tail);
    // Put back together, the parts are the name.
    for (const n of ['default/sample-win-app-6c8d9f5b7-x2kqz', 'kube-system/coredns', 'sandbox 3f2a9c1b7d4e…', 'default/averyveryverylongpodnamewithoutdashes']) {
      const p = nameParts(n);
      expect(p.head + p.tail).toBe(n);
      expect(p.tail.length).toBeLessThanOrEqual(14);
    }
    expect(nameParts('default/web')).toEqual({ head: 'default/web', tail: '' });
  });
});
