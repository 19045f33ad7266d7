// The collection command list: the node logs and CNI config commands with their bounds, the HNS
// commands' "printed nothing" answer, and the frames a multi-file command's files travel in.
import { describe, expect, it } from 'vitest';
import { CNI_BOUNDS, CNI_DIRS, COLLECT_COMMANDS, LOG_BOUNDS, LOG_DIRS, scriptFor } from '../../../services/live/collect-commands.ts';
import { isSafeFrameName, readFrames, writeFrames } from '../../../services/live/file-frames.ts';
import { kindFromName } from '../../../parsers/bundle/classify.ts';
import { componentFromName } from '../../../parsers/logs/components.ts';

const cmd = (id: string) => COLLECT_COMMANDS.find((c) => c.id === id)!;

describe('node logs and CNI config in the command list', () => {
  it('the logs command reads the usual log folders, newest first, each file tailed to its bound', () => {
    const c = cmd('logs');
    expect(c.multi).toEqual(LOG_BOUNDS);
    expect(LOG_BOUNDS).toEqual({ maxFileBytes: 5 << 20, maxFiles: 32, maxTotalBytes: 64 << 20, headBytes: 256 << 10 });
    const s = scriptFor(c);
    for (const d of ['C:\\k', 'C:\\var\\log\\kubelet', 'C:\\var\\log\\kube-proxy', 'C:\\ProgramData\\containerd', 'C:\\ProgramData\\Amazon\\EKS\\logs']) {
      expect(LOG_DIRS).toContain(d);
      expect(s).toContain(`'${d}'`);
    }
    expect(s).toContain(`Sort-Object LastWriteTime -Descending | Select-Object -First ${LOG_BOUNDS.maxFiles})`);
    expect(s).toContain(`Send-File $name $f.FullName ${LOG_BOUNDS.maxFileBytes} $head $false`);
    expect(s).toContain(`$script:budget = [long]${LOG_BOUNDS.maxTotalBytes}`);
    // kubelet and kube-proxy keep their start (version, FLAG lines) beside the tail.
    expect(s).toContain(`$(if ($f.Name -match 'kubelet|kube-?proxy') { ${LOG_BOUNDS.headBytes} } else { 0 })`);
    // A tail starts at a line, opened shared so the running service's log is read.
    expect(s).toContain("[System.IO.FileShare]'ReadWrite, Delete'");
    expect(s).toContain("$(if ($start -gt 0) { 'start' } else { '' })");
  });

  it('the cni command reads the CNI config folders and containerd\'s conf_dir, whole files only', () => {
    const c = cmd('cni');
    expect(c.multi).toEqual(CNI_BOUNDS);
    const s = scriptFor(c);
    for (const d of ['C:\\k\\cni\\config', 'C:\\k\\azurecni\\netconf', 'C:\\etc\\cni\\net.d']) {
      expect(CNI_DIRS).toContain(d);
      expect(s).toContain(`'${d}'`);
    }
    expect(s).toContain("Join-Path $env:ProgramFiles 'containerd\\config.toml'");
    expect(s).toContain('conf_dir');
    expect(s).toContain("$_.Name -match '\\.(conf|conflist|json)$'");
    expect(s).toContain(`Send-File (Get-BundleName $f.FullName) $f.FullName ${CNI_BOUNDS.maxFileBytes} 0 $true`);
  });

  it('the names files land under are the ones the loader recognises', () => {
    for (const n of ['logs/k/kubelet.log', 'logs/k/kubeproxy.log', 'logs/k/kubeproxy.head.log', 'logs/k/containerd.log', 'logs/k/azure-vnet.log', 'logs/var/log/kubelet/kubelet.exe.INFO.log']) expect(kindFromName(n), n).toBe('log');
    expect(componentFromName('logs/k/kubeproxy.head.log')).toBe('kube-proxy');
    expect(componentFromName('logs/var/log/kubelet/kubelet.exe.INFO.log')).toBe('kubelet');
    for (const n of ['cni/k/cni/config/cni.conf', 'cni/etc/cni/net.d/10-flannel.conflist', 'cni/k/azurecni/netconf/10-azure.conflist']) expect(kindFromName(n), n).toBe('cni-config');
  });

  it('the HNS commands print [] when HNS has no such objects (the loader reads it as "printed nothing", not a missing file)', () => {
    for (const id of ['network', 'endpoint', 'namespaces', 'policy']) expect(cmd(id).body, id).toMatch(/ConvertTo-Json -Depth 20 \} else \{ '\[\]' \}/);
  });
});

describe('file frames', () => {
  it('round-trips bytes exactly, whatever their encoding', () => {
    const files = [
      { name: 'k/kubelet.log', bytes: new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\r\n', 'utf16le')])) },
      { name: 'etc/cni/net.d/10-x.conflist', bytes: new Uint8Array(Buffer.from('{"plugins":[]}')) },
      { name: 'big.log', bytes: new Uint8Array(300).map((_, i) => i & 0xff) },
    ];
    const r = readFrames(writeFrames(files));
    expect(r.files.map((f) => [f.name, Buffer.from(f.bytes).toString('hex')])).toEqual(files.map((f) => [f.name, Buffer.from(f.bytes).toString('hex')]));
    expect(r.cut).toBeUndefined();
    expect(r.refused).toEqual([]);
  });

  it('a frame cut off (a timeout mid-file) is dropped and named; unsafe names are refused', () => {
    const whole = Buffer.from(writeFrames([{ name: 'a.log', bytes: new Uint8Array([1, 2, 3]) }, { name: 'b.log', bytes: new Uint8Array(100).fill(7) }]));
    const cut = readFrames(new Uint8Array(whole.subarray(0, whole.length - 20)));
    expect(cut.files.map((f) => f.name)).toEqual(['a.log']);
    expect(cut.cut).toBe('b.log');
    const bad = readFrames(writeFrames([{ name: '../escape.log', bytes: new Uint8Array([1]) }, { name: 'C:/x.log', bytes: new Uint8Array([1]) }, { name: 'ok/x.log', bytes: new Uint8Array([1]) }]));
    expect(bad.files.map((f) => f.name)).toEqual(['ok/x.log']);
    expect(bad.refused).toEqual(['../escape.log', 'C:/x.log']);
    for (const n of ['/abs.log', 'a//b.log', 'a/./b.log', 'a\\b.log', 'a b.log', '']) expect(isSafeFrameName(n), n).toBe(false);
    expect(isSafeFrameName('Program_Files/containerd/cni/conf/10-x.conf')).toBe(true);
  });
});
