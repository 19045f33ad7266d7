// parsers/logs/parse.ts: which component a log is. A name that says only "cni" yields to content that
// names a plugin; a name that names windows-container-networking's plugin (wincni.log, sdnbridge)
// decides even though its lines carry the `[cni-net]` tag azure-vnet's lines carry too (both plugins
// share that package: microsoft/windows-container-networking cni/network.go logs "[cni-net] …").
import { describe, expect, it } from 'vitest';
import { parseLogFile } from '../../../parsers/logs/parse.ts';

const LINES = '2024/03/14 09:15:22 [cni-net] Processing ADD command with args {ContainerID:abc Netns:none IfName:eth0}.\n2024/03/14 09:15:23 [cni-net] Creating a new Endpoint.\n';

describe('a CNI log named by its plugin', () => {
  it('wincni.log with [cni-net] lines is the win-bridge/win-overlay log, not azure-vnet', () => {
    expect(parseLogFile(LINES, 'C:/k/wincni.log').value.component).toBe('cni');
    expect(parseLogFile(LINES, 'sdnbridge.log').value.component).toBe('cni');
  });
  it('the same lines under a name that says nothing are read by their content', () => {
    expect(parseLogFile(LINES, 'x.log').value.component).toBe('azure-cni');
  });
});
