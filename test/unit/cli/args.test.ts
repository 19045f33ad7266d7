// The flags every command shares one reader for (cli/args.ts): an unknown flag and a missing value are
// named, with exit code 2, in every command; whole numbers are read strictly.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { oneOfFlag, parseFlags, wholeNumberFlag } from '../../../cli/args.ts';
import { UsageError } from '../../../cli/errors.ts';

const usage = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('no UsageError');
};

describe('parseFlags', () => {
  const options = { from: { type: 'string' }, json: { type: 'boolean', default: false }, to: { type: 'string', multiple: true } } as const;

  it('reads flags and the other arguments', () => {
    const r = parseFlags('trace', ['b.zip', '--from', '10.0.0.1', '--to', 'a', '--to=b', '--json'], options);
    expect(r.values).toEqual({ from: '10.0.0.1', to: ['a', 'b'], json: true });
    expect(r.positionals).toEqual(['b.zip']);
  });

  it('names an unknown flag and lists the flags the command takes', () => {
    expect(usage(() => parseFlags('trace', ['--form', '10.0.0.1'], options))).toBe('trace: unknown flag --form; trace takes --from VALUE, --json, --to VALUE (a value that starts with - goes after --)');
    expect(usage(() => parseFlags('trace', ['-x'], options))).toMatch(/^trace: unknown flag -x;/);
  });

  it('names a flag whose value is missing, at the end or followed by another flag', () => {
    expect(usage(() => parseFlags('trace', ['b', '--from'], options))).toBe('trace: --from needs a value');
    expect(usage(() => parseFlags('trace', ['--from', '--json'], options))).toBe('trace: --from needs a value (a value that starts with - is written --from=VALUE)');
    expect(usage(() => parseFlags('trace', ['--json=yes'], options))).toBe('trace: --json takes no value');
    expect(usage(() => parseFlags('report', ['-o'], { out: { type: 'string', short: 'o' } }))).toBe('report: --out needs a value');
  });
});

describe('number and list flags', () => {
  it('takes a whole number in range and nothing else', () => {
    expect(wholeNumberFlag('8080', '--src-port', { min: 1, max: 65535 })).toBe(8080);
    expect(wholeNumberFlag(undefined, '--src-port', { min: 1, max: 65535 })).toBeUndefined();
    // Number() read these as 80, 1000, 8, 5: a port or a budget the user did not write.
    for (const bad of ['0x50', '1e3', '8.0', '+5', '', '0', '65536', ' 80x']) expect(usage(() => wholeNumberFlag(bad, '--src-port', { min: 1, max: 65535 }))).toBe(`--src-port must be a whole number from 1 to 65535, not "${bad}"`);
    expect(usage(() => wholeNumberFlag('0', '--max-walks', { min: 1, max: Number.MAX_SAFE_INTEGER }))).toBe('--max-walks must be a whole number from 1 up, not "0"');
  });

  it('takes one of a list, in any case', () => {
    expect(oneOfFlag('UDP', '--proto', ['tcp', 'udp', 'icmp'] as const)).toBe('udp');
    expect(usage(() => oneOfFlag('sctp', '--proto', ['tcp', 'udp', 'icmp'] as const))).toBe('--proto must be tcp, udp or icmp, not "sctp"');
  });
});

describe('every command', () => {
  for (const [command, flag] of [['trace', '--from'], ['reach', '--from'], ['report', '--out'], ['inspect', '--json'], ['diff', '--json'], ['fleet', '--json'], ['serve', '--port']] as const) {
    it(`${command}: an unknown flag is named, exit code 2`, async () => {
      const r = await runCli(command, 'bundle.zip', '--no-such-flag');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`hnsight: ${command}: unknown flag --no-such-flag;`);
      expect(r.stderr).toContain(flag);
    });
  }
  for (const [command, flag] of [['trace', '--to'], ['reach', '--max-walks'], ['report', '--out']] as const) {
    it(`${command}: a missing value is named, exit code 2`, async () => {
      const r = await runCli(command, 'bundle.zip', flag);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`hnsight: ${command}: ${flag} needs a value`);
    });
  }
  it('trace --src-port 0x50 is refused, not read as port 80', async () => {
    const r = await runCli('trace', 'bundle.zip', '--from', '10.0.0.1', '--to', '10.0.0.2:80', '--src-port', '0x50');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--src-port must be a whole number from 1 to 65535, not "0x50"');
  });
});
