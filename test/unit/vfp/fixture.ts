// Shared helpers of the VFP parser tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countVfpPolicy } from '../../../parsers/vfp/count.ts';
import { parseVfpRuleText } from '../../../parsers/vfp/policy-text.ts';
import { scanVfpOutput } from '../../../parsers/vfp/scan.ts';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/vfp/', import.meta.url));

export function fixture(name: string): string {
  return readFileSync(FIXTURES + name, 'utf8');
}

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(FIXTURES + name));
}

/** The seed's damage: every line's indentation removed. */
export function flatten(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/^[ \t]+/, ''))
    .join('\n');
}

export function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export interface PortCounts {
  name: string;
  implicit: boolean;
  blocked: boolean | undefined;
  layers: number;
  groups: number;
  rules: number;
}

/** Per-port counts from the detailed parser. */
export function detailedCounts(text: string, file = 'f'): PortCounts[] {
  return parseVfpRuleText(text, file).value.map((p) => ({
    name: p.implicit ? '' : p.portName,
    implicit: !!p.implicit,
    blocked: p.blocked,
    ...countVfpPolicy(p),
  }));
}

/** Per-port counts from the byte scanner. */
export function scannedCounts(bytes: Uint8Array, file = 'f'): PortCounts[] {
  return scanVfpOutput(bytes, file).value.ports.map((p) => ({
    name: p.implicit ? '' : p.name,
    implicit: p.implicit,
    blocked: p.blocked,
    layers: p.layers,
    groups: p.groups,
    rules: p.rules,
  }));
}
