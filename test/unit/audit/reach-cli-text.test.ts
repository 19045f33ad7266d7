// Audit of issue #25 point 2 and the working rules ("--help of each command", "no (s)"): what a user reads
// from `hnsight reach` and `hnsight diff --reach` without --json. Defects for the owners of cli/ and
// analysis/reach/format.ts; each test keeps its defect fixed.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';

const TYPO = 'test/fixtures/foreign-faults/l2bridge-exceptionlist-typo';
const BASE = 'test/fixtures/foreign/ws2019-flannel-l2bridge-2020';

describe('audit: reach --from, as text', () => {
  // DEFECT A6. Issue #25 point 1: a class's outcome includes "the findings on its path, and the reply's
  // outcome". The JSON has them (on this node 36 classes carry verdictCaveat "OutBoundNAT ExceptionList
  // entry 10.244.0.0/0 …", severity error), but the text table (analysis/reach/format.ts formatClasses)
  // prints PROTO DESTINATION PORTS VERDICT DECIDED BY only: every pod → internet class reads as a plain
  // "forwarded", and no reply is shown (the matrix's text has a REPLY column; the classes' has none).
  it('says when an error finding qualifies a class, and shows the reply', async () => {
    const r = await runCli('reach', TYPO, '--from', '10.244.3.5');
    const json = JSON.parse((await runCli('reach', TYPO, '--from', '10.244.3.5', '--json')).stdout) as { classes: { verdictCaveat: unknown }[] };
    expect(json.classes.some((c) => c.verdictCaveat)).toBe(true); // the premise: the JSON says it
    expect(r.stdout).toMatch(/ExceptionList|but /);
    expect(r.stdout).toMatch(/REPLY/);
  });

  // DEFECT A8 (wording). Common rules: no "(s)" in product text. The notes print "13 longest-prefix-match
  // group(s)" (analysis/reach/shadow.ts notAnalysed) and the findings "on 5 pod endpoint(s)".
  it('writes no "(s)"', async () => {
    const r = await runCli('reach', TYPO, '--from', '10.244.3.5');
    expect(r.stdout).not.toMatch(/\(s\)/);
  });
});

describe('audit: text cut at 80 columns loses the point', () => {
  // DEFECT A10. analysis/reach/format.ts cuts every shadow line and every diff line to 80 characters with
  // "…", whatever the terminal. On the real dump of microsoft/SdnDiagnostics PR 629 (../shared/corpus,
  // FW_ADMIN_LAYER: allow-all at priority 1000 before block-all at 65532) the line reads
  // "blocked by 418b4399-… (priority 1000), which does…": whether the blocking rule does something else
  // (issue #25 point 4, Batfish filterLineReachability's key fact) is cut away, as is the port. In
  // `diff --reach` the "after:" line loses its reply ("after: delivered by EXCEPTIONS_…, …").
  it('says whether the blocking rule does the same (shadowed rules)', async () => {
    const r = await runCli('reach', '../shared/corpus/vfp-list-rule__microsoft-SdnDiagnostics-pr-629.txt');
    expect(r.stdout).toMatch(/blocked by 418b4399/); // the premise: the rule is found shadowed
    expect(r.stdout).toMatch(/something else|same action/);
  });

  it('keeps the reply of each change (diff --reach)', async () => {
    const r = await runCli('diff', BASE, TYPO, '--reach');
    const after = r.stdout.split('\n').filter((l) => /^\s+after:/.test(l));
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((l) => l.endsWith('…'))).toEqual([]);
  });
});

describe('audit: reach on an input with no source', () => {
  // DEFECT A11 (minor). On a single real output (e.g. Get-HnsEndpoint JSON from Azure/AKS#1367, one
  // remote endpoint; or a vfpctrl dump) `reach` prints "reachability: 0 cells" and an empty table: it
  // does not say why (no local pod and no host address in the input) nor what it needs — the rule is
  // "insufficient information: needs X", never silence.
  it('says what it needs when no source can be walked', async () => {
    const r = await runCli('reach', '../shared/corpus/hns-endpoint-json__Azure-AKS-issue-1367.txt');
    expect(r.stdout).toMatch(/reachability: 0 cells/);
    expect(r.stdout + r.stderr).toMatch(/insufficient information|needs|no local pod/i);
  });
});

describe('audit: --help after a command', () => {
  // DEFECT A7. `hnsight reach --help` answers "hnsight: reach: unknown flag --help; …" with the whole
  // usage on stderr and exit 2; the same for trace, diff, inspect, report. A user's first try is
  // `<command> --help`: it should print that command's usage on stdout and exit 0.
  for (const cmd of ['reach', 'trace', 'diff']) {
    it(`${cmd} --help prints the usage and exits 0`, async () => {
      const r = await runCli(cmd, '--help');
      expect(r.stderr).not.toMatch(/unknown flag/);
      expect(r.code).toBe(0);
    });
  }
});

describe('audit: diff --reach with nothing changed', () => {
  // DEFECT A9 (minor). "reachability changes: 0" is followed by an empty table's header line
  // (FROM PROTO DESTINATION PORTS). Seen on the 2019 node against itself and against
  // l2bridge-missing-remote-route (see reach-diff.test.ts for why that one should not be 0).
  it('prints no table header under "0"', async () => {
    const r = await runCli('diff', BASE, BASE, '--reach');
    const at = r.stdout.indexOf('reachability changes: 0');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(r.stdout.slice(at)).not.toMatch(/FROM\s+PROTO\s+DESTINATION/);
  });
});
