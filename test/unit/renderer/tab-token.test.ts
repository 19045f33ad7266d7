// Browser mode's per-tab token (renderer/src/api/tab-token.ts): taken from the URL once, which is
// cleaned; kept in the tab's storage for a reload; absent in a new tab opened without the URL.
import { describe, expect, it } from 'vitest';
import { takeTabToken } from '../../../renderer/src/api/tab-token.ts';

function place(href: string, stored: Record<string, string> = {}, opts: { refuse?: boolean } = {}) {
  const replaced: string[] = [];
  const storage = {
    getItem: (k: string) => {
      if (opts.refuse) throw new Error('SecurityError');
      return stored[k] ?? null;
    },
    setItem: (k: string, v: string) => {
      if (opts.refuse) throw new Error('QuotaExceededError');
      stored[k] = v;
    },
  };
  return { p: { href, storage, replaceUrl: (u: string) => void replaced.push(u) }, replaced, stored };
}

describe('the tab token', () => {
  it('moves the token from the URL to the tab storage and cleans the URL, keeping the rest of it', () => {
    const { p, replaced, stored } = place('http://127.0.0.1:5000/?a=1&token=secret-1#x');
    expect(takeTabToken(p)).toBe('secret-1');
    expect(replaced).toEqual(['/?a=1#x']);
    expect(Object.values(stored)).toEqual(['secret-1']);
    expect(replaced.join()).not.toContain('secret');
  });

  it('finds it again after a reload (the URL no longer has it)', () => {
    const stored: Record<string, string> = {};
    takeTabToken(place('http://127.0.0.1:5000/?token=secret-2', stored).p);
    const reload = place('http://127.0.0.1:5000/', stored);
    expect(takeTabToken(reload.p)).toBe('secret-2');
    expect(reload.replaced).toEqual([]);
  });

  it('has none in a new tab opened without the URL', () => {
    expect(takeTabToken(place('http://127.0.0.1:5000/').p)).toBeUndefined();
  });

  it('a new URL (a restarted server) replaces the stored token', () => {
    const stored: Record<string, string> = {};
    takeTabToken(place('http://127.0.0.1:5000/?token=old', stored).p);
    expect(takeTabToken(place('http://127.0.0.1:5000/?token=new', stored).p)).toBe('new');
    expect(takeTabToken(place('http://127.0.0.1:5000/', stored).p)).toBe('new');
  });

  it('still works for this page when storage is refused', () => {
    const { p, replaced } = place('http://127.0.0.1:5000/?token=secret-3', {}, { refuse: true });
    expect(takeTabToken(p)).toBe('secret-3');
    expect(replaced).toEqual(['/']);
    expect(takeTabToken(place('http://127.0.0.1:5000/', {}, { refuse: true }).p)).toBeUndefined();
  });
});
