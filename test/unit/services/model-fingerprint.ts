// One hash of everything a node holds that JSON can say (the model's objects, its files' issues, its
// evidence text, its VFP index's arrays by content), so a node rebuilt in a worker can be compared with
// the node the main thread built without sending the node back. Methods and closures are left out:
// they are code, not data, and a revived node's are checked by using them (walks, rule reads).
import { createHash } from 'node:crypto';
import type { NodeModel } from '../../../parsers/model/types.ts';

export function modelJson(model: NodeModel): string {
  return JSON.stringify(model, (_k, v: unknown) => {
    if (ArrayBuffer.isView(v)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      return { typed: v.constructor.name, bytes: v.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    if (v instanceof Map) return { map: [...v] };
    if (v instanceof Set) return { set: [...v] };
    if (typeof v === 'bigint') return `${v}n`;
    return v;
  });
}

export function modelFingerprint(model: NodeModel): string {
  return createHash('sha256').update(modelJson(model)).digest('hex');
}
