// Deterministic PRNG (sfc32 seeded through splitmix32) so that a seed always yields the same bundle bytes.
// Math.random is never used anywhere in the generator.

function splitmix32(a: number): () => number {
  return () => {
    a |= 0;
    a = (a + 0x9e3779b9) | 0;
    let t = a ^ (a >>> 16);
    t = Math.imul(t, 0x21f0aaad);
    t = t ^ (t >>> 15);
    t = Math.imul(t, 0x735a2d97);
    return (t ^ (t >>> 15)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const sm = splitmix32(seed >>> 0);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A new independent stream, so that adding draws in one part of the generator does not shift another. */
  fork(label: string): Rng {
    let h = this.u32();
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
    return new Rng(h);
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  float(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(arr: readonly T[]): T {
    return arr[Math.floor(this.float() * arr.length)];
  }

  /** k distinct items (k clamped to arr.length), order preserved from arr. */
  sample<T>(arr: readonly T[], k: number): T[] {
    const n = arr.length;
    k = Math.min(k, n);
    const idx = new Set<number>();
    while (idx.size < k) idx.add(Math.floor(this.float() * n));
    return [...idx].sort((x, y) => x - y).map((i) => arr[i]);
  }

  hex(len: number, upper = true): string {
    let s = '';
    while (s.length < len) s += this.u32().toString(16).padStart(8, '0');
    s = s.slice(0, len);
    return upper ? s.toUpperCase() : s;
  }

  /** A version-4 style GUID, upper case as HNS and vfpctrl print them. */
  guid(): string {
    const h = this.hex(32);
    const variant = '89AB'[this.u32() & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** MAC with dashes, upper case, under a fixed OUI prefix like "00-15-5D". */
  mac(prefix: string): string {
    const parts = prefix.split('-');
    while (parts.length < 6) parts.push(this.hex(2));
    return parts.join('-');
  }
}

/** Stable 5-hex-digit tag used in HNS/VFP rule names (e.g. LB_DSR_72C28_...). */
export function hash5(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return (h >>> 0).toString(16).toUpperCase().padStart(8, '0').slice(0, 5);
}
