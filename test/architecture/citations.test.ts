// A comment that cites a document cites one the repository has (issue 44: 22 comments cited a reading of
// avalanchego's source that lived outside the repository; they now cite docs/avalanchego-wire.md, or
// avalanchego's source by path and tag). Checked over every source of the three packages and the tests.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/proc.js';

const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const SOURCES = tracked.filter((f) => /\.(ts|js|mjs)$/.test(f) && /^(src|simulated-node\/src|backtest\/src|test|bench|scripts)\//.test(f) && !f.startsWith('test/fixtures/') && f !== 'test/architecture/citations.test.ts'); // this file's examples are made up

/** The Markdown files a source's comments name (`docs/x.md`, `README.md`, `./y.md`). */
function citedDocs(text: string): string[] {
  const comments = [...text.matchAll(/\/\*[^]*?\*\/|\/\/.*$/gm)].map((m) => m[0]).join('\n');
  // A document of avalanchego's own repository is named with it ("avalanchego RELEASES.md", "avalanchego's
  // api/info/service.md"): not ours to have.
  return [...comments.matchAll(/(?<![\w/.-])((?:\.{1,2}\/|[\w-]+\/)*[\w.-]+\.md)\b/g)]
    .filter((m) => !/avalanchego('s)? (\S+\/)*$/.test(comments.slice(Math.max(0, m.index! - 60), m.index!)))
    .map((m) => m[1]!);
}

/** Whether a cited document exists: from the root, beside the source, or (a bare name like README.md) anywhere in the tree. */
function exists(source: string, doc: string): boolean {
  if (existsSync(join(ROOT, doc)) || existsSync(join(ROOT, dirname(source), doc))) return true;
  return !doc.includes('/') && tracked.some((f) => f === doc || f.endsWith(`/${doc}`));
}

describe('citations', () => {
  it('default: every document a comment cites is in the repository', () => {
    expect(SOURCES.length).toBeGreaterThan(300);
    const missing: string[] = [];
    let cited = 0;
    for (const f of SOURCES) {
      for (const doc of citedDocs(readFileSync(join(ROOT, f), 'utf8'))) {
        cited++;
        if (!exists(f, doc)) missing.push(`${f}: ${doc}`);
      }
    }
    expect(cited).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('behavior: a comment citing a file the repository lacks is found', () => {
    expect(citedDocs('/** wire shapes (AVALANCHEGO.md §3) */\nconst x = 1; // see docs/runbook.md')).toEqual(['AVALANCHEGO.md', 'docs/runbook.md']);
    expect(citedDocs('// avalanchego RELEASES.md v1.15.0; avalanchego api/info/service.md')).toEqual([]);
    expect(exists('src/x.ts', 'AVALANCHEGO.md')).toBe(false);
    expect(exists('src/x.ts', 'docs/avalanchego-wire.md')).toBe(true);
  });
});
