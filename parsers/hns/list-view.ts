// HNS objects as PowerShell's default list view prints them (`Get-HnsNetwork`, `Get-HnsEndpoint`,
// `Get-HnsPolicyList`, `Get-HnsNamespace` typed at a prompt, no ConvertTo-Json): one `Key : value`
// record per object, nested values rendered as `@{…}` / `{…}` (parsers/ps/ps-value.ts), values one
// level deeper printed as `System.Object[]`. Each record becomes the object it renders, so the same
// normalisers as for JSON read it; what the view did not print is reported by them.
//
// Samples: corpus hns-network-list-* and hns-endpoint-list-wrapped (Windows-Containers#59);
// research samples hns-policylist-list (knabben blog, calico#8465), hns-namespace-list (calico#8465).

import type { PsValue } from '../ps/ps-value.ts';
import { readPsValue } from '../ps/ps-value.ts';
import { parsePsList, isPsListLine } from '../ps/list.ts';
import { splitLines, isBlank } from '../ps/lines.ts';

export interface HnsListRecord {
  value: { [k: string]: PsValue };
  /** 1-based line of the record's first key. */
  line: number;
  /** 1-based line of its last line. */
  endLine: number;
  /** A value ended before its braces closed (the paste was cut inside it). */
  cut: boolean;
}

export interface HnsListView {
  records: HnsListRecord[];
  /** 1-based lines that are neither a record nor blank (prompts, labels, a cut last line). */
  otherLines: number[];
}

/** Reads every run of Format-List records in `text`; lines between the runs are listed, not read. */
export function readHnsListView(text: string, file: string): HnsListView {
  const lines = splitLines(text);
  const out: HnsListView = { records: [], otherLines: [] };
  let i = 0;
  // The loop ends where the lines end (i moves inside the body).
  for (let line = lines[i]; line !== undefined; line = lines[i]) {
    if (isBlank(line)) {
      i++;
      continue;
    }
    // A record starts at a `Key : value` line whose key is a PowerShell property name.
    if (!isPsListLine(line) || !/^[A-Za-z][\w.-]*\s+:/.test(line)) {
      out.otherLines.push(i + 1);
      i++;
      continue;
    }
    const r = parsePsList(lines, i, file).value;
    if (r.records.length === 0 || r.endIndex <= i) {
      out.otherLines.push(i + 1);
      i++;
      continue;
    }
    for (const [k, rec] of r.records.entries()) {
      const following = r.records[k + 1];
      const next = following ? following.line - 1 : r.endIndex;
      let cut = false;
      const value: { [key: string]: PsValue } = {};
      for (const [key, raw] of Object.entries(rec.fields)) {
        const v = readPsValue(raw);
        if (v.cut) cut = true;
        value[key] = v.value;
      }
      let end = next;
      while (end > rec.line && isBlank(lines[end - 1])) end--;
      out.records.push({ value, line: rec.line, endLine: end, cut });
    }
    i = r.endIndex;
  }
  return out;
}
