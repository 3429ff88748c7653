// The documentation holds together (issue 44): the README stays short (at most 300 lines), its fleet example is
// a valid configuration, and every relative link of the README, of docs/*.md, of bench/README.md,
// backtest/README.md and alerts/README.md reaches a file of the repository, and an anchor on a markdown file
// reaches one of its headings (GitHub's slugs). Links inside code blocks and links to web addresses are not checked.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'bench/README.md',
  'backtest/README.md',
  'alerts/README.md',
];

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, ... */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every relative link target of a markdown text: `[text](target)` and `![alt](target)`. */
function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

describe('the documentation', () => {
  it('default: README.md is at most 300 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(300);
  });

  it('default: the fleet example of the README loads, with the targets it names', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## A fleet')))![1]!;
    const { config } = loadConfig({ argv: ['--config.file', 'fleet.yaml'], env: {}, readFile: () => yaml });
    expect(config.targets.map((t) => [t.name, t.reference])).toEqual([
      ['validator-1', false],
      ['validator-2', false],
      ['public-reference', true],
    ]);
  });

  it('default: the slugs are GitHub\'s', () => {
    expect([...anchorsOf('# A b\n## Configuration file (fleet)\n### `--flag` and Wiring it up\n## A b\n```\n# not a heading\n```\n')]).toEqual([
      'a-b',
      'configuration-file-fleet',
      '--flag-and-wiring-it-up',
      'a-b-1',
    ]);
  });

  it('default: every relative link reaches a file, and every anchor a heading of its markdown file', () => {
    const problems: string[] = [];
    for (const doc of DOCS) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const link of linksOf(text)) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? join(ROOT, doc) : resolve(join(ROOT, dirname(doc)), decodeURIComponent(path));
        if (!target.startsWith(ROOT) || !existsSync(target)) {
          problems.push(`${doc}: ${link}: no such file`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          problems.push(`${doc}: ${link}: ${relative(ROOT, target)} has no heading #${anchor}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
