// Ticket formatting undone before any parser runs (parsers/text/paste.ts): here the blockquote marks.
import { describe, expect, it } from 'vitest';
import { cleanPaste } from '../../../parsers/text/paste.ts';

describe('cleanPaste: blockquote marks', () => {
  it('removes one level of "> " and keeps the lines', () => {
    const r = cleanPaste('> Networks:\n> Name ID\n>\n> nat  F413E630\n');
    expect(r.text).toBe('Networks:\nName ID\n\nnat  F413E630\n');
    expect(r.changes).toEqual(['"> " quote marks removed from 4 lines']);
  });
  it('removes a quoted reply\'s "> > " and mixed depths', () => {
    const r = cleanPaste('> You wrote:\n>\n> > Networks:\n> > Name ID\n> >\n> > nat  F413E630');
    expect(r.text).toBe('You wrote:\n\nNetworks:\nName ID\n\nnat  F413E630');
    expect(r.changes).toEqual(['"> " quote marks (2 levels) removed from 6 lines']);
    expect(cleanPaste('>> a b\n>> c d\n').text).toBe('a b\nc d\n');
  });
  it('removes ">" without its space when every line has it, keeping the indentation after it', () => {
    const r = cleanPaste('>Ethernet adapter vEthernet (nat):\n>\n>   IPv4 Address. . . : 172.28.48.1\n');
    expect(r.text).toBe('Ethernet adapter vEthernet (nat):\n\n   IPv4 Address. . . : 172.28.48.1\n');
    expect(r.changes).toEqual(['">" quote marks removed from 3 lines']);
  });
  it('leaves a PowerShell prompt ">cmd" or ">>" continuation among other lines alone', () => {
    const t = 'C:\\k>hnsdiag list networks\nName ID\nnat  F413E630\n>> more\n';
    expect(cleanPaste(t).changes).toEqual([]);
    expect(cleanPaste('>only one line').changes).toEqual([]);
  });
});
