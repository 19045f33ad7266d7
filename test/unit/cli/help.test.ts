// `--help` and `-h` on every command print that command's usage on standard output and exit 0 (the
// strict flag reader of cli/args.ts refused them as unknown flags, exit 2). The commands are read from
// the CLI's command table, so a new command is covered without editing this file.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { COMMAND_NAMES } from '../../../cli/commands/index.ts';
import { commandUsage, USAGE } from '../../../cli/usage.ts';

describe('help', () => {
  it('the command table is not empty and every command has a usage', () => {
    expect(COMMAND_NAMES.length).toBeGreaterThan(5);
    for (const c of COMMAND_NAMES) expect(commandUsage(c), c).toBeDefined();
  });

  for (const command of COMMAND_NAMES) {
    for (const args of [[command, '--help'], [command, '-h'], [command, 'bundle.zip', '--from', '10.0.0.1', '--help'], ['help', command]]) {
      it(`hnsight ${args.join(' ')}: the usage of ${command} on stdout, exit 0`, async () => {
        const r = await runCli(...args);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toMatch(/^Usage:\n/);
        const forms = r.stdout.split('\n').filter((l) => /^ {2}hnsight /.test(l));
        expect(forms.length).toBeGreaterThan(0);
        // Only this command's forms: not the whole usage.
        for (const f of forms) expect(f.trim().split(/\s+/)[1]).toBe(command);
      });
    }
  }

  it('after --, --help is an argument, not a request for help', async () => {
    const r = await runCli('diff', 'a', '--', '--help');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('hnsight --help, -h and help print the whole usage and exit 0; no arguments exit 2', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['help', 'help']]) {
      const r = await runCli(...args);
      expect(r.code, args.join(' ')).toBe(0);
      for (const c of COMMAND_NAMES) expect(r.stdout).toContain(`hnsight ${c}`);
    }
    expect((await runCli()).code).toBe(2);
  });

  it('a usage error of a command prints that command\'s usage, not every command\'s', async () => {
    const r = await runCli('reach', 'assets/demo/l2bridge-node', '--to', '10.96.0.10:53/sctp');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the protocol after / must be tcp, udp or icmp, not "sctp"');
    const forms = r.stderr.split('\n').filter((l) => /^ {2}hnsight /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
    expect(forms.length).toBeGreaterThan(0);
    expect(new Set(forms)).toEqual(new Set(['reach']));
    expect(r.stderr).toContain('Every command: hnsight --help');
  });

  it('help for a name that is not a command is a usage error naming the commands', async () => {
    const r = await runCli('help', 'tarce');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no help for "tarce": the commands are inspect, trace');
  });

  it('every form in the usage belongs to a command of the table (or is help)', () => {
    const named = new Set(USAGE.split('\n').filter((l) => /^ {2}hnsight /.test(l)).map((l) => l.trim().split(/\s+/)[1]));
    for (const n of named) expect([...COMMAND_NAMES, 'help']).toContain(n);
  });
});

describe('usage text', () => {
  it('diff --reach says it compares IPv4 and IPv6 apart (docs/cli.md: each family, a pod\'s IPv6 address a source of its own)', () => {
    const diff = commandUsage('diff') ?? '';
    const reach = diff.slice(diff.indexOf('--reach:'));
    expect(reach).toMatch(/IPv4 and IPv6 apart/);
    expect(reach).toMatch(/IPv6 address is a source of its own/);
  });
});
