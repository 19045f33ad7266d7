// A map from 53-bit numeric keys to non-negative integers on typed arrays (open addressing, linear
// probing). port-rules.ts looks up a million rule-name keys per node; a Map with such keys (heap
// numbers, not small integers) spent more time hashing them than the rest of the work together.
export class KeyTable {
  private keys: Float64Array;
  private values: Int32Array;
  private used: Uint8Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    let c = 16;
    while (c < capacity * 2) c *= 2;
    this.keys = new Float64Array(c);
    this.values = new Int32Array(c);
    this.used = new Uint8Array(c);
    this.mask = c - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The value of key, or -1. */
  get(key: number): number {
    let i = slot(key) & this.mask;
    while (this.used[i]) {
      if (this.keys[i] === key) return this.values[i] ?? -1;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  set(key: number, value: number): void {
    let i = slot(key) & this.mask;
    while (this.used[i]) {
      if (this.keys[i] === key) {
        this.values[i] = value;
        return;
      }
      i = (i + 1) & this.mask;
    }
    this.used[i] = 1;
    this.keys[i] = key;
    this.values[i] = value;
    if (++this.count * 2 > this.mask) this.grow();
  }

  private grow(): void {
    const { keys, values, used } = this;
    const c = (this.mask + 1) * 2;
    this.keys = new Float64Array(c);
    this.values = new Int32Array(c);
    this.used = new Uint8Array(c);
    this.mask = c - 1;
    this.count = 0;
    for (let i = 0; i < used.length; i++) {
      const k = keys[i];
      const v = values[i];
      if (used[i] && k !== undefined && v !== undefined) this.set(k, v);
    }
  }
}

/** Mixes the high and low halves of a key (keys up to 2⁵³; ToUint32 takes the low 32 bits). */
function slot(key: number): number {
  const hi = Math.floor(key / 4294967296);
  return (Math.imul(hi ^ (key >>> 0), 0x9e3779b1) >>> 7) ^ (key >>> 0);
}
