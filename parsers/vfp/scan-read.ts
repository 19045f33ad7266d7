// Reading an index the scanner made (scan.ts): one port's bytes parsed in detail, and an index that
// crossed a thread boundary rebuilt over the same bytes. Kept apart from the scanner's state machine.
import { IssueSink } from '../types.ts';
import type { ParseResult } from '../types.ts';
import { LineLocator } from './line-locator.ts';
import { parseVfpRuleText } from './policy-text.ts';
import { IndexPort, IndexLayer, ScanIndex, type ScanState } from './scan-index.ts';
import { asByteSource, type ByteSource } from './byte-source.ts';
import { nameDecoder } from './scan-bytes.ts';
import type { VfpIndex } from './index-types.ts';
import type { VfpPortPolicy } from './types.ts';

/**
 * Rebuilds an index that crossed a thread boundary: structured cloning keeps the data but drops the
 * getters and methods that resolve line numbers, so they are re-attached over the same bytes.
 */
export function reviveVfpIndex(plain: VfpIndex, bytes: Uint8Array | ByteSource): VfpIndex {
  const src = asByteSource(bytes);
  const loc = new LineLocator(src, plain.lineTable);
  const head = src.read(0, 3);
  const pos0 = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const shell: ScanState = {
    pos0,
    n: src.size,
    ports: plain.ports.map((p) => IndexPort.revive(loc, p)),
    layers: plain.layers.map((l) => IndexLayer.revive(loc, l)),
    groupByte: { a: plain.groupByte, n: plain.groupByte.length },
    groupPort: { a: plain.groupPort, n: plain.groupPort.length },
    ruleByte: { a: plain.ruleByte, n: plain.ruleByte.length },
    rulePort: { a: plain.rulePort, n: plain.rulePort.length },
    ruleName: { a: plain.ruleName, n: plain.ruleName.length },
  };
  const index = new ScanIndex(loc, plain.file, shell);
  index.portTable = plain.portTable;
  index.generation = plain.generation;
  if (plain.lineTable && loc.built) index.lineTable = plain.lineTable;
  return index;
}

/** Decodes one indexed port's bytes and runs the detailed parser; line numbers are true file lines. */
export function materializeVfpPort(bytes: Uint8Array | ByteSource, index: VfpIndex, portIndex: number): ParseResult<VfpPortPolicy> {
  const file = index?.file ?? '';
  const sink = new IssueSink(file);
  const ip = index?.ports?.[portIndex];
  const empty = (name: string, line: number): VfpPortPolicy => ({
    portName: name,
    layers: [],
    portState: {},
    natRanges: [],
    sections: [],
    flowStats: {},
    otherSections: [],
    src: { file, line },
  });
  if (!ip) {
    sink.error(0, `no port #${portIndex} in the VFP index`);
    return { value: empty('', 0), issues: sink.issues };
  }
  try {
    const text = nameDecoder.decode(asByteSource(bytes).read(ip.byteStart, ip.byteEnd - ip.byteStart));
    const r = parseVfpRuleText(text, file, { lineOffset: ip.lineStart - 1, defaultPortName: ip.name });
    sink.issues.push(...r.issues);
    if (r.value.length !== 1) sink.warn(ip.line, `port range decoded into ${r.value.length} ports (expected 1)`);
    const value = r.value[0] ?? empty(ip.name, ip.line);
    if (ip.implicit) value.implicit = true;
    return { value, issues: sink.issues };
  } catch (e) {
    sink.error(ip.line, `internal error while materializing port: ${e instanceof Error ? e.message : String(e)}`);
    return { value: empty(ip.name, ip.line), issues: sink.issues };
  }
}
