// Real and generated texts of one kind, decoded, for properties run over every sample the project
// has: the test fixtures of a folder, the shared corpus files whose names start with a prefix, and
// the generator's file of that kind on a few platforms.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeText } from '../../parsers/text/decode.ts';
import { CORPUS } from './corpus.ts';
import { generatedText } from './line-mutations.ts';
import type { PlatformName } from '../../tools/gen/index.ts';

const PLATFORMS: PlatformName[] = ['flannel-vxlan', 'azure-cni', 'calico-bgp'];

export function sampleTexts(fixtureDirs: string[], corpusPrefixes: string[], generatedFile?: string): string[] {
  const out: string[] = [];
  for (const d of fixtureDirs) {
    const dir = path.resolve('test/fixtures', d);
    for (const n of readdirSync(dir).sort()) if (/\.(txt|md|json|log)$/.test(n)) out.push(decodeText(readFileSync(path.join(dir, n)), n).text);
  }
  if (CORPUS) for (const n of readdirSync(CORPUS).sort()) if (!n.endsWith('.src') && corpusPrefixes.some((p) => n.startsWith(p))) out.push(decodeText(readFileSync(path.join(CORPUS, n)), n).text);
  if (generatedFile) for (const platform of PLATFORMS) out.push(generatedText(generatedFile, { platform, seed: 2 }));
  return out;
}
