// Paste from another node (issue #23): the text's host name, network subnets or local endpoints'
// addresses set against the open node's. The two demo nodes are two different nodes; each file of one
// pasted on the other is told apart when it says who it is, and no file of a node is ever taken for
// another node's (a false "another node" would push a user to split one node in two).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../../services/bundle/load.ts';
import { parseBundleFile } from '../../../parsers/bundle/parse-file.ts';
import { nodeIdentity, otherNode, pasteIdentity, type Identity } from '../../../analysis/view-models/paste-origin.ts';
import type { NodeModel } from '../../../parsers/model/types.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const demo = (n: string) => path.join(repo, 'assets/demo', n);
const FILES = ['ip.txt', 'network.txt', 'endpoint.txt', 'hnsdiag.txt', 'routes.txt', 'policy.txt', 'vfpOutput.txt'];

const pasted = (node: string, file: string) => pasteIdentity(parseBundleFile(`pasted text.txt`, readFileSync(path.join(demo(node), file))));

describe('otherNode on the demo nodes', () => {
  let l2: NodeModel;
  let overlay: NodeModel;
  beforeAll(async () => {
    l2 = await loadBundle(demo('l2bridge-node'));
    overlay = await loadBundle(demo('overlay-node'));
  });

  it('never says a node’s own output is another node’s', () => {
    for (const [name, m] of [['l2bridge-node', l2], ['overlay-node', overlay]] as const) {
      for (const f of FILES) expect(otherNode(pasted(name, f), nodeIdentity(m)), `${name}/${f}`).toBeUndefined();
    }
  });

  it('says so for ipconfig (the host name), the networks (their subnets) and the endpoints of the other node', () => {
    const ip = otherNode(pasted('overlay-node', 'ip.txt'), nodeIdentity(l2));
    expect(ip?.hostName).toBeTruthy();
    expect(ip?.why).toMatch(new RegExp(`^host ${ip!.hostName} \\(the open node is ${l2.meta.hostName}\\)$`));
    const net = otherNode(pasted('overlay-node', 'network.txt'), nodeIdentity(l2));
    expect(net?.subnet).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(otherNode(pasted('l2bridge-node', 'ip.txt'), nodeIdentity(overlay))?.hostName).toBeTruthy();
  });
});

describe('otherNode rules', () => {
  const id = (o: Partial<Identity>): Identity => ({ hostNames: [], subnets: [], addresses: [], ...o });
  it('host names decide when both have one (case and DNS suffix ignored)', () => {
    expect(otherNode(id({ hostNames: ['WIN-A.corp.local'] }), id({ hostNames: ['win-a'] }))).toBeUndefined();
    expect(otherNode(id({ hostNames: ['win-b'], subnets: ['10.244.1.0/24'] }), id({ hostNames: ['win-a'], subnets: ['10.244.1.0/24'] }))?.hostName).toBe('win-b');
  });
  it('subnets: any overlap is the same node; none is another', () => {
    const node = id({ subnets: ['10.244.1.0/24', '10.240.0.4/16'] });
    expect(otherNode(id({ subnets: ['10.244.1.0/24'] }), node)).toBeUndefined();
    expect(otherNode(id({ subnets: ['10.244.0.0/16'] }), node)).toBeUndefined();
    expect(otherNode(id({ subnets: ['10.245.2.0/24'] }), node)?.subnet).toBe('10.245.2.0/24');
  });
  it('addresses: one inside a subnet of the node is enough to stay silent', () => {
    const node = id({ subnets: ['10.244.1.0/24'] });
    expect(otherNode(id({ addresses: ['10.244.2.5', '10.244.1.9'] }), node)).toBeUndefined();
    expect(otherNode(id({ addresses: ['10.244.2.5', '10.244.2.6'] }), node)?.why).toMatch(/^address 10\.244\.2\.5 and 1 more, in none of the open node's subnets \(10\.244\.1\.0\/24\)$/);
  });
  it('nothing to compare says nothing', () => {
    expect(otherNode(id({}), id({ hostNames: ['a'], subnets: ['10.0.0.0/8'] }))).toBeUndefined();
    expect(otherNode(id({ addresses: ['10.1.1.1'] }), id({}))).toBeUndefined();
    expect(otherNode(id({ subnets: ['garbage', '300.1.1.1/24'] }), id({ subnets: ['10.0.0.0/8'] }))).toBeUndefined();
  });
});
