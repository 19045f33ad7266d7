// The manifests of deploy/k8s, checked offline (no cluster is reachable here): every object against
// the Kubernetes API schemas as the official client generates them from the OpenAPI spec
// (test/helpers/k8s-schema.ts: unknown fields, types, required fields), the API server's rules these
// manifests depend on, and the collection script: made from the live collectors' command list, and
// committed as generated.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { repo } from '../../helpers/cli.ts';
import { validateObject, clientNodeVersion, modelOf } from '../../helpers/k8s-schema.ts';
import { collectConfigMapYaml, SCRIPT_KEY } from '../../../tools/deploy/configmap.ts';
import { COLLECT_COMMANDS, scriptFor } from '../../../services/live/collect-commands.ts';
import { PS_PROLOGUE, decodeEncodedCommand } from '../../../services/live/wsman.ts';
import { MANIFEST, nodeCollectionScript } from '../../../services/live/node-script.ts';
import { FRAME_END, FRAME_START, SAFE_NAME } from '../../../services/live/file-frames.ts';
import { HOSTPROCESS_IMAGE } from '../../../services/live/kubectl.ts';

const dir = path.join(repo, 'deploy', 'k8s');
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> }; spec?: any; data?: Record<string, string> }; // eslint-disable-line @typescript-eslint/no-explicit-any
const objects: { file: string; obj: Obj }[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => yaml.loadAll(readFileSync(path.join(dir, f), 'utf8')).map((obj) => ({ file: f, obj: obj as Obj })));
const one = (kind: string) => objects.find((o) => o.obj.kind === kind)!.obj;

describe('deploy/k8s manifests', () => {
  it(`every object is valid against the API schemas (from @kubernetes/client-node ${clientNodeVersion()})`, () => {
    expect(objects.map((o) => o.obj.kind).sort()).toEqual(['ConfigMap', 'DaemonSet', 'Job', 'Namespace', 'PersistentVolumeClaim']);
    for (const { file, obj } of objects) expect(validateObject(obj), `${file} ${obj.kind}`).toEqual([]);
  });

  it('the schemas catch what a typo or a wrong type would break', () => {
    const ds = structuredClone(one('DaemonSet'));
    ds.spec.template.spec.securityContext.windowsOptions.hostProces = true;
    ds.spec.template.spec.containers[0].resources.limits = 'a lot';
    delete ds.spec.selector;
    const problems = validateObject(ds).join('\n');
    expect(problems).toContain('hostProces');
    expect(problems).toContain('spec.template.spec.containers.0.resources.limits');
    expect(problems).toContain('spec.selector');
    const job = structuredClone(one('Job'));
    job.spec.template.spec.containers[0].volumeMounts[0] = { mountPath: '/bundles' };
    expect(validateObject(job).join('\n')).toContain('volumeMounts.0.name');
  });

  it('a kind is looked up by its group and version: a DaemonSet under v1 or a Job under apps/v1 is no API object', () => {
    const ds = structuredClone(one('DaemonSet'));
    ds.apiVersion = 'v1';
    expect(validateObject(ds)).toEqual(['(root): no kind DaemonSet in v1 (the API serves no such group, version and kind)']);
    const job = structuredClone(one('Job'));
    job.apiVersion = 'apps/v1';
    expect(validateObject(job)).toEqual(['(root): no kind Job in apps/v1 (the API serves no such group, version and kind)']);
    // An unknown apiVersion is a problem reported, not a crash.
    expect(validateObject({ apiVersion: 'example.com/v9', kind: 'Widget' })).toEqual(['(root): no kind Widget in example.com/v9 (the API serves no such group, version and kind)']);
    expect(modelOf('apps/v1', 'DaemonSet')).toBe('V1DaemonSet');
    expect(modelOf('batch/v1', 'Job')).toBe('V1Job');
    expect(modelOf('v1', 'Namespace')).toBe('V1Namespace');
  });

  it('a quantity is a string or a bare number (cpu: 1), nothing else', () => {
    const ds = structuredClone(one('DaemonSet'));
    const c = ds.spec.template.spec.containers[0];
    c.resources = { requests: { cpu: 1, memory: '64Mi' }, limits: { cpu: 0.5 } };
    expect(validateObject(ds)).toEqual([]);
    c.resources.limits.cpu = { amount: 1 };
    expect(validateObject(ds).join('\n')).toContain('resources.limits.cpu');
  });

  it('the API server\'s rules these manifests rely on', () => {
    const ns = one('Namespace');
    const ds = one('DaemonSet');
    const job = one('Job');
    const pvc = one('PersistentVolumeClaim');
    const cm = one('ConfigMap');
    // Everything in one namespace, which Pod Security Admission lets run privileged pods.
    for (const { obj } of objects) if (obj.kind !== 'Namespace') expect(obj.metadata.namespace, obj.kind).toBe(ns.metadata.name);
    expect(ns.metadata.labels!['pod-security.kubernetes.io/enforce']).toBe('privileged');
    // A DaemonSet's selector must match its template's labels (apps/v1 validation).
    for (const [k, v] of Object.entries(ds.spec.selector.matchLabels)) expect(ds.spec.template.metadata.labels[k]).toBe(v);
    // HostProcess: hostNetwork must be true and every container HostProcess (create-hostprocess-pod docs).
    const pod = ds.spec.template.spec;
    expect(pod.securityContext.windowsOptions.hostProcess).toBe(true);
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext.windowsOptions.runAsUserName).toBe('NT AUTHORITY\\SYSTEM');
    expect(pod.nodeSelector['kubernetes.io/os']).toBe('windows');
    expect(pod.containers[0].image).toBe(HOSTPROCESS_IMAGE);
    // A Job's pods restart Never or OnFailure; the fleet runs on Linux.
    expect(['Never', 'OnFailure']).toContain(job.spec.template.spec.restartPolicy);
    expect(job.spec.template.spec.nodeSelector['kubernetes.io/os']).toBe('linux');
    // Both mount the one volume every node can write at once; the DaemonSet mounts the script's ConfigMap.
    expect(pvc.spec.accessModes).toEqual(['ReadWriteMany']);
    for (const p of [pod, job.spec.template.spec]) expect(p.volumes.find((v: { persistentVolumeClaim?: { claimName: string } }) => v.persistentVolumeClaim)?.persistentVolumeClaim.claimName).toBe(pvc.metadata.name);
    expect(pod.volumes.find((v: { configMap?: { name: string } }) => v.configMap).configMap.name).toBe(cm.metadata.name);
    // The run folder the nodes write and the Job reads is the same, and the Job waits for the manifest the script writes last.
    const env = (c: { env: { name: string; value?: string }[] }, n: string) => c.env.find((e) => e.name === n)?.value;
    expect(env(pod.containers[0], 'HNSIGHT_RUN')).toBe(env(job.spec.template.spec.containers[0], 'HNSIGHT_RUN'));
    expect(job.spec.template.spec.containers[0].args[0]).toContain(`-name ${MANIFEST}`);
    // The DaemonSet runs the script from where its volumes are (under the sandbox mount point).
    const run = pod.containers[0].args[0] as string;
    const mount = (name: string) => pod.containers[0].volumeMounts.find((m: { name: string }) => m.name === name).mountPath.replace(/^\//, '');
    expect(run).toContain(`'${mount('script')}\\${SCRIPT_KEY}'`);
    expect(run).toContain(`'${mount('bundles')}'`);
  });
});

describe('the node collection script', () => {
  it('deploy/k8s/collect-configmap.yaml is the generated one (regenerate: npm run deploy:manifests)', () => {
    expect(readFileSync(path.join(dir, 'collect-configmap.yaml'), 'utf8')).toBe(collectConfigMapYaml());
    expect(one('ConfigMap').data![SCRIPT_KEY]).toBe(nodeCollectionScript());
  });

  it('runs every collection command, each the live collectors\' own script with their prologue, written to its bundle file', () => {
    const script = nodeCollectionScript();
    const rows = [...script.matchAll(/@\{ id = '([^']+)'; file = '([^']+)'; title = '((?:[^']|'')*)'; timeoutSec = (\d+); multi = \$(true|false); encoded = '([A-Za-z0-9+/=]+)' \}/g)];
    expect(rows.map((r) => r[1])).toEqual(COLLECT_COMMANDS.map((c) => c.id));
    for (const [i, r] of rows.entries()) {
      const c = COLLECT_COMMANDS[i];
      expect(r[2]).toBe(c.file);
      expect(Number(r[4])).toBe(Math.ceil(c.timeoutMs / 1000));
      expect(r[5]).toBe(String(!!c.multi));
      expect(decodeEncodedCommand(`-EncodedCommand ${r[6]}`)).toBe(`${PS_PROLOGUE}\n${scriptFor(c)}`);
    }
    // The manifest is written last (the Job waits for it), as UTF-8 without a BOM.
    expect(script.lastIndexOf(MANIFEST)).toBeGreaterThan(script.indexOf('foreach ($c in $commands)'));
    expect(script).toContain('New-Object System.Text.UTF8Encoding $false');
  });

  it('a command that printed nothing leaves no empty file; a multi-file command\'s frames are split into its folder', () => {
    const script = nodeCollectionScript();
    // The empty output file is removed once the command ends, before the record is made.
    const loop = script.slice(script.indexOf('foreach ($c in $commands)'));
    expect(loop).toContain('if (-not $bytes) { Remove-Item -Force $stdoutFile -ErrorAction SilentlyContinue }');
    expect(loop.indexOf('Remove-Item -Force $stdoutFile')).toBeLessThan(loop.indexOf('$rec = [ordered]'));
    // Multi-file commands write their frames to a temporary file, split by the same markers and name rule as the live collectors.
    expect(script).toContain('$stdoutFile = $(if ($c.multi) { Join-Path $out ".$($c.id).frames" } else { $target })');
    expect(script).toContain(`$line.StartsWith('${FRAME_START}')`);
    expect(script).toContain(`$line.Substring(${FRAME_START.length})`);
    expect(script).toContain(`-eq '${FRAME_END}'`);
    expect(script).toContain(`$name -cmatch '${SAFE_NAME.source}'`);
    expect(script).toContain('[System.IO.File]::WriteAllBytes($t, $bytes)');
    expect(script).toContain('if ($c.multi) { $rec.files = $files }');
    // Only the two multi-file commands are framed.
    expect(COLLECT_COMMANDS.filter((c) => c.multi).map((c) => [c.id, c.file])).toEqual([['logs', 'logs'], ['cni', 'cni']]);
  });
});
