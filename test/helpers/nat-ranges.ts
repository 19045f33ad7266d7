// A copy of a bundle whose pod ports list one 128-port NAT range each in their empty `/list-nat-range`
// sections, in the fields of ETW's V4DepositNatRange {range type, addr, start port, end port}
// (microsoft/SDN etl_vfpext.npl): no published dump shows a filled section.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The copy's folder (the caller removes it) and how many sections were filled. */
export function withNatRanges(bundle: string, address = '192.168.30.21'): { dir: string; filled: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hnsight-nat-'));
  cpSync(bundle, dir, { recursive: true });
  const vfp = path.join(dir, 'vfpOutput.txt');
  let filled = 0;
  const text = readFileSync(vfp, 'latin1').replace(/( ITEM LIST\r\n===========\r\n)(\r\nCommand list-nat-range succeeded!)/g, (_all, a: string, b: string) => {
    const lo = 20000 + 128 * filled++;
    return `${a}    Range type : 1, Address : ${address}, Start port : ${lo}, End port : ${lo + 127}\r\n${b}`;
  });
  writeFileSync(vfp, text, 'latin1');
  return { dir, filled };
}
