// known_hosts as OpenSSH reads it (sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT"; OpenSSH hostfile.c):
//   [marker] hostpatterns keytype base64-key [comment]
// - A host's key is compared only with the keys listed for it *of the same type*: a host listed with
//   an ECDSA key that offers an Ed25519 one is a new key of another type, not a changed key
//   (OpenSSH's check_hostkeys_by_key_or_type). The client also asks for the known types first, as
//   ssh does (ssh.ts), so a host listed with any key it still has is simply matched.
// - `@cert-authority` lines hold a certificate authority's key, not the host's: hnsight does not
//   check host certificates, so such a line neither matches nor contradicts (it is reported).
// - `@revoked` lines: a key listed there is refused for every host (stricter than a host match).
// - Hashed host names (`|1|salt|hmac`) and negated patterns (`!pattern`) are understood; wildcard
//   patterns (`*`, `?`) match as in OpenSSH's match_pattern.
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export type KnownHostVerdict =
  | { verdict: 'match' }
  | { verdict: 'mismatch' }
  | { verdict: 'revoked' }
  /** Not listed with a key of this type. `otherTypes`: the types it is listed with; `ca`: a @cert-authority line names it. */
  | { verdict: 'unknown'; otherTypes: string[]; ca: boolean };

/** Host patterns as known_hosts writes them: `host` on port 22, `[host]:port` otherwise. */
export const hostPattern = (host: string, port: number) => (port === 22 ? host : `[${host}]:${port}`);

/** The key type a public key blob names (its first SSH string). */
export function keyType(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const n = key.readUInt32BE(0);
  return key.subarray(4, 4 + Math.min(n, 64)).toString('latin1');
}

function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp('^' + pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
  return re.test(name);
}

/** Whether a comma-separated pattern list names `want` (a negated pattern that matches excludes it). */
export function hostsMatch(patterns: string, want: string): boolean {
  let hit = false;
  for (const p of patterns.split(',')) {
    if (p.startsWith('|1|')) {
      const [, , salt, hash] = p.split('|');
      if (salt && hash && createHmac('sha1', Buffer.from(salt, 'base64')).update(want).digest('base64') === hash) hit = true;
      continue;
    }
    if (p.startsWith('!')) {
      if (globMatch(p.slice(1), want)) return false;
      continue;
    }
    if (globMatch(p, want)) hit = true;
  }
  return hit;
}

/** The verdict of known_hosts' text on `key` offered by `host`:`port`. */
export function judgeKnownHost(text: string, host: string, port: number, key: Buffer): KnownHostVerdict {
  const want = hostPattern(host, port);
  const keyB64 = key.toString('base64');
  const type = keyType(key);
  let sameTypeSeen = false;
  const otherTypes = new Set<string>();
  let ca = false;
  let matched = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    let fields = line.split(/\s+/);
    let marker: string | undefined;
    if (fields[0].startsWith('@')) {
      marker = fields[0];
      fields = fields.slice(1);
    }
    const [hosts, lineType, blob] = fields;
    if (!hosts || !lineType || !blob) continue;
    if (marker === '@revoked') {
      if (blob === keyB64) return { verdict: 'revoked' };
      continue;
    }
    if (!hostsMatch(hosts, want)) continue;
    if (marker === '@cert-authority') {
      ca = true;
      continue;
    }
    // An unknown marker: OpenSSH ignores the line.
    if (marker) continue;
    if (lineType !== type) {
      otherTypes.add(lineType);
      continue;
    }
    sameTypeSeen = true;
    if (blob === keyB64) matched = true;
  }
  if (matched) return { verdict: 'match' };
  if (sameTypeSeen) return { verdict: 'mismatch' };
  return { verdict: 'unknown', otherTypes: [...otherTypes], ca };
}

/** The key types known_hosts lists for this host (plain lines only), for the client to ask for first. */
export function knownTypes(text: string, host: string, port: number): string[] {
  const want = hostPattern(host, port);
  const out = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const fields = raw.trim().split(/\s+/);
    if (!fields[0] || fields[0].startsWith('#') || fields[0].startsWith('@') || fields.length < 3) continue;
    if (hostsMatch(fields[0], want)) out.add(fields[1]);
  }
  return [...out];
}

/** Reads known_hosts; a missing or unreadable file is empty. */
export async function readKnownHosts(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Adds a host's key (trust on first use). Never rejects: when the file cannot be written (read-only,
 * a folder in its place, a full disk) the reason comes back for the caller to say, and the key is
 * still accepted for this connection only.
 */
export async function addKnownHost(file: string, host: string, port: number, key: Buffer): Promise<{ saved: true } | { saved: false; reason: string }> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.appendFile(file, `${hostPattern(host, port)} ${keyType(key)} ${key.toString('base64')}\n`, { mode: 0o600 });
    return { saved: true };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return { saved: false, reason: err.code ?? err.message };
  }
}
