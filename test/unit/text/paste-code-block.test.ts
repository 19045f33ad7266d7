// "a code-block indentation of 4 spaces removed" was said of output whose indentation is its own: a
// ConvertTo-Json document (its opening `{`/`[` taken for a sentence before a Markdown code block), or
// the output under the PowerShell prompt and command that printed it (issue #23). It is said of a
// sentence followed by an indented block, and of a text indented as a whole, only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanPaste } from '../../../parsers/text/paste.ts';

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus');
const PASTE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../parsers/text/paste.ts');
const read = (name: string) => readFileSync(path.join(corpus, name), 'utf8');

describe('code-block indentation is said of a code block only', () => {
  // Real pastes from public issues (each file's .src names it).
  for (const name of [
    'hns-endpoint-json__Azure-AKS-issue-1367.txt', // PS C:\…> Get-HnsEndpoint | ConvertTo-Json, then the JSON
    'hns-endpoint-json__projectcalico-calico-issue-4682.txt', // Get-HNSEndpoint |? … | ConvertTo-Json, then the JSON
    'cni-config-azure-vnet__Azure-aks-engine-issue-1235.txt', // a JSON document from its `{`
    'cni-config-azure-vnet-overlay__Azure-azure-container-networking-pr-2281.txt',
  ]) {
    it(`leaves ${name} as printed`, () => {
      const r = cleanPaste(read(name));
      expect(r.changes.filter((c) => /indentation/.test(c))).toEqual([]);
    });
  }

  const json = ['[', '    {', '        "ID":  "a",', '        "IPAddress":  "10.244.1.5"', '    }', ']'];
  const prompts = ['{', 'PS C:\\k> Get-HnsNetwork | ConvertTo-Json', 'Get-HnsEndpoint', 'hnsdiag list endpoints -d', 'Networks:'];
  it('a JSON document or a command before indented output is not prose', () => {
    for (const head of prompts) {
      const body = json.slice(1, -1);
      const r = cleanPaste([head, ...body].join('\n'));
      expect(r.changes, head).toEqual([]);
      expect(r.text).toBe([head, ...body].join('\n'));
    }
  });

  it('a sentence, then a block indented by four or more, is a Markdown code block', () => {
    for (const indent of [4, 6, 8]) {
      const pad = ' '.repeat(indent);
      const r = cleanPaste(['Here is what HNS has for the two pods:', '', ...json.map((l) => pad + l)].join('\n'));
      expect(r.changes).toEqual([`a code-block indentation of ${indent} spaces removed from line 3 on`]);
      expect(r.text.split('\n').slice(2)).toEqual(json);
    }
  });

  // A VFP dump opens with a line that reads as prose (`Port name  Mac Address  PortId` over the ports'
  // table) and has hundreds of thousands of lines: finding the block's indentation once threw "Maximum
  // call stack size exceeded" past ≈ 125,000 lines, and the whole vfpOutput.txt was refused. Run in a
  // plain node process: the test's own thread has a larger stack, where only millions of lines throw.
  it('a block of 200,000 lines is measured like a short one', () => {
    const script = [
      `import { cleanPaste } from ${JSON.stringify(pathToFileURL(PASTE).href)};`,
      "const rows = Array.from({ length: 200000 }, (_, i) => '      Rule ' + i + ' : allow');",
      "const r = cleanPaste(['Port name  Mac Address  PortId', ...rows].join('\\n'));",
      "console.log(JSON.stringify({ changes: r.changes, last: r.text.split('\\n')[200000] }));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ changes: ['a code-block indentation of 6 spaces removed from line 2 on'], last: 'Rule 199999 : allow' });
  });
});
