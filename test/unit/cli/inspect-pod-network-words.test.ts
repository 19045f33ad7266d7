// `inspect`'s plugin line on a real paste whose pod network's type the input does not give
// (../shared/corpus hnsdiag list all from kubernetes-sigs/sig-windows-tools#168, an EKS vpc-bridge
// node): it printed "pod network vpcbr06684cbed472 ()". The type is said only when known.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadBundle } from '../../../services/bundle/load.ts';
import { runChecks } from '../../../analysis/checks/index.ts';
import { inspectDocument } from '../../../analysis/inspect.ts';
import { formatInspectText } from '../../../cli/format/inspect-text.ts';

const CORPUS = path.resolve('../shared/corpus');

describe('inspect: the pod network on the plugin line', () => {
  it('has no empty parentheses when the type is not in the input', async () => {
    const m = await loadBundle([path.join(CORPUS, 'hnsdiag-list-all__kubernetes-sigs-sig-windows-tools-issue-168.txt')]);
    const text = formatInspectText(m, inspectDocument(m, runChecks(m)), { verbose: false });
    const line = text.split('\n').find((l) => l.startsWith('network plugin:')) ?? '';
    expect(line).toMatch(/pod network vpcbr06684cbed472\b/);
    expect(line).not.toMatch(/\(\s*\)/);
  });

  it('names the type when it is known (the WS2019 fixture: cbr0, l2bridge)', async () => {
    const m = await loadBundle(path.resolve('test/fixtures/foreign/ws2019-flannel-l2bridge-2020'));
    const text = formatInspectText(m, inspectDocument(m, runChecks(m)), { verbose: false });
    expect(text).toMatch(/pod network cbr0 \(l2bridge\)/);
  });
});
