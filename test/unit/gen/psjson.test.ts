import { describe, expect, it } from 'vitest';
import { Raw, psJson, psJsonPipeline } from '../../../tools/gen/index.ts';

describe('PowerShell 5.1 ConvertTo-Json layout', () => {
  it('aligns nested containers under their key, escapes like JavaScriptSerializer', () => {
    const text = psJson({ IsRemoteEndpoint: true, Name: "it's <a&b>", Policies: [{ PA: '10.123.74.74', Type: 'PA' }], Empty: [], Obj: {}, T: new Raw('133601533830004321') });
    expect(text).toBe(
      [
        '{',
        '    "IsRemoteEndpoint":  true,',
        '    "Name":  "it\\u0027s \\u003ca\\u0026b\\u003e",',
        '    "Policies":  [',
        '                     {',
        '                         "PA":  "10.123.74.74",',
        '                         "Type":  "PA"',
        '                     }',
        '                 ],',
        '    "Empty":  [',
        '',
        '              ],',
        '    "Obj":  {',
        '',
        '            },',
        '    "T":  133601533830004321',
        '}',
      ].join('\n'),
    );
  });

  it('one pipeline object is bare, several make an array, none make nothing', () => {
    expect(psJsonPipeline([])).toBe('');
    expect(psJsonPipeline([{ a: 1 }])).toBe('{\n    "a":  1\n}\n');
    expect(psJsonPipeline([{ a: 1 }, { a: 2 }])).toBe('[\n    {\n        "a":  1\n    },\n    {\n        "a":  2\n    }\n]\n');
  });
});
