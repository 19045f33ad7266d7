// Route numbers read strictly (issue #28, point 8): an IPv6 prefix longer than 128 bits was taken as
// written; now the route is refused with a warning at its line and the rest of the table is read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRoutesTxt } from '../../../parsers/routes/routes-txt.ts';

const text = readFileSync(new URL('../../fixtures/routes/k8s-node-routes.txt', import.meta.url), 'utf8');

describe('IPv6 route rows', () => {
  it('fe80::/129 is refused at its line; the other IPv6 routes are read', () => {
    const lines = text.split('\n');
    expect(lines[40]).toMatch(/fe80::\/64/);
    lines[40] = lines[40].replace('fe80::/64', 'fe80::/129');
    const r = parseRoutesTxt(lines.join('\n'), 'routes.txt');
    expect(r.value.ipv6Active.map((x) => x.destination)).toEqual(['::1/128', 'fe80::4d2c:1b0e:9a77:52a1/128', 'ff00::/8', 'ff00::/8']);
    expect(r.issues).toEqual([expect.objectContaining({ line: 41, severity: 'warning', message: expect.stringMatching(/fe80::\/129: the prefix length 129 is out of range/) })]);
  });
});
