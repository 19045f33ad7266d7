// Compare's reachability on a dual-stack node (services/backend/reach-diff-worker-main.ts): the worker
// matches the IPv6 sources too (analysis/reach/diff.ts matchSources) and lists the same changes as
// `hnsight diff A B --reach`; an IPv6 change is named by what it is addressed to and its example
// packet walks on each side as an IPv6 flow. The walk scenarios' dual-stack base against its d05
// scenario (one pod's IPv6 load-balancing group removed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReachDiffs } from '../../../services/backend/reach-diffs.ts';
import { changeFlow, type ReachDiffView } from '../../../analysis/view-models/reach-diff-view.ts';
import { diffReach } from '../../../analysis/reach/index.ts';
import { loadBundle } from '../../../services/bundle/load.ts';
import { modelFindings } from '../../../analysis/view-models/findings.ts';
import { scenarioBundle } from '../../helpers/scenario-bundle.ts';
import { DUALSTACK } from '../reach/models-v6.ts';

let diffs: ReachDiffs;
let view: ReachDiffView;
const after = scenarioBundle(['d05-dualstack-v6-group-missing']);

beforeAll(async () => {
  diffs = new ReachDiffs(undefined, { maxMs: 120_000 });
  view = await diffs.get('j6', { pathA: DUALSTACK, pathB: after });
}, 240_000);

afterAll(() => diffs?.close());

describe('Compare on a dual-stack node', () => {
  it('lists the IPv6 changes, the same as diff --reach, each named by what it is addressed to', async () => {
    const a = await loadBundle(DUALSTACK);
    const b = await loadBundle(after);
    const cli = diffReach(a, b, { findings: { before: modelFindings(a), after: modelFindings(b) } });
    const strip = (cs: typeof cli.changed) => cs.map((c) => ({ from: c.from, dst: c.dst, ports: c.ports, proto: c.proto, before: c.before, after: c.after }));
    expect(strip(view.changed)).toEqual(strip(cli.changed));
    expect(view.changed.some((c) => c.from.includes(':'))).toBe(true);
    expect(view.sources).toBeGreaterThan(4);
    const vip = view.changed.find((c) => c.dst[0] === 'fd00:96::5');
    expect(vip?.to?.kind).toBe('service');
  }, 120_000);

  it('an IPv6 change\'s example walks on each side as an IPv6 flow, to its side\'s verdict', async () => {
    const c = view.changed.find((x) => x.from.includes(':'))!;
    const wa = await diffs.walk('j6', 'a', changeFlow(c, 'a'));
    const wb = await diffs.walk('j6', 'b', changeFlow(c, 'b'));
    expect(wa.flow.dstIp).toContain(':');
    expect(wb.verdict).toBe(c.after.verdict);
  }, 120_000);
});
