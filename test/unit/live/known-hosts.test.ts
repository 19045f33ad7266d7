// known_hosts read as OpenSSH reads it (services/live/known-hosts.ts; sshd(8) "SSH_KNOWN_HOSTS FILE
// FORMAT", OpenSSH hostfile.c check_hostkeys_by_key_or_type): keys compared only with keys of the
// same type, marker lines not taken for host keys, hashed and wildcard patterns understood.
import { describe, expect, it } from 'vitest';
import { createHmac, randomBytes } from 'node:crypto';
import { hostsMatch, judgeKnownHost, keyType, knownTypes } from '../../../services/live/known-hosts.ts';

/** A public key blob: string type, then bytes (enough for the comparisons made here). */
function blob(type: string, seed: string): Buffer {
  const t = Buffer.from(type);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(t.length);
  return Buffer.concat([len, t, Buffer.from(seed)]);
}
const ED = blob('ssh-ed25519', 'host-ed');
const ED_OTHER = blob('ssh-ed25519', 'other-ed');
const EC = blob('ecdsa-sha2-nistp256', 'host-ec');
const line = (hosts: string, k: Buffer, marker = '') => `${marker ? marker + ' ' : ''}${hosts} ${keyType(k)} ${k.toString('base64')} comment`;

describe('judgeKnownHost', () => {
  it('matches the listed key and refuses another key of the same type', () => {
    expect(judgeKnownHost(line('node1', ED), 'node1', 22, ED)).toEqual({ verdict: 'match' });
    expect(judgeKnownHost(line('node1', ED_OTHER), 'node1', 22, ED).verdict).toBe('mismatch');
    expect(judgeKnownHost(line('[node1]:2222', ED), 'node1', 2222, ED).verdict).toBe('match');
    expect(judgeKnownHost(line('node1', ED), 'node1', 2222, ED).verdict).toBe('unknown');
  });

  it('a host listed only with a key of another type is unknown, not changed', () => {
    expect(judgeKnownHost(line('node1', EC), 'node1', 22, ED)).toEqual({ verdict: 'unknown', otherTypes: ['ecdsa-sha2-nistp256'], ca: false });
    // With both types listed, the offered type decides.
    expect(judgeKnownHost([line('node1', EC), line('node1', ED)].join('\n'), 'node1', 22, ED).verdict).toBe('match');
    expect(judgeKnownHost([line('node1', EC), line('node1', ED_OTHER)].join('\n'), 'node1', 22, ED).verdict).toBe('mismatch');
  });

  it('a @cert-authority line is not a host key: neither match nor change', () => {
    expect(judgeKnownHost(line('*.example.com,node1', ED_OTHER, '@cert-authority'), 'node1', 22, ED)).toEqual({ verdict: 'unknown', otherTypes: [], ca: true });
    expect(judgeKnownHost(line('node1', ED, '@cert-authority'), 'node1', 22, ED).verdict).toBe('unknown');
  });

  it('a @revoked key is refused, even beside a line that lists it', () => {
    expect(judgeKnownHost([line('node1', ED), line('*', ED, '@revoked')].join('\n'), 'node1', 22, ED).verdict).toBe('revoked');
    expect(judgeKnownHost([line('node1', ED), line('*', ED_OTHER, '@revoked')].join('\n'), 'node1', 22, ED).verdict).toBe('match');
  });

  it('understands hashed names, wildcards and negations; ignores junk lines', () => {
    const salt = randomBytes(20);
    const hashed = `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update('node1').digest('base64')}`;
    expect(judgeKnownHost(line(hashed, ED), 'node1', 22, ED).verdict).toBe('match');
    expect(hostsMatch('10.0.0.*', '10.0.0.7')).toBe(true);
    expect(hostsMatch('10.0.0.*,!10.0.0.7', '10.0.0.7')).toBe(false);
    expect(hostsMatch('node?', 'node1')).toBe(true);
    expect(hostsMatch('node.1', 'nodex1')).toBe(false);
    expect(judgeKnownHost('# comment\n\ngarbage\n@weird node1 ssh-ed25519 AAAA\n' + line('node1', ED), 'node1', 22, ED).verdict).toBe('match');
  });

  it('lists the key types known for a host, for the client to ask for first', () => {
    expect(knownTypes([line('node1', EC), line('node2', ED), line('node1', ED_OTHER, '@cert-authority')].join('\n'), 'node1', 22)).toEqual(['ecdsa-sha2-nistp256']);
  });
});
