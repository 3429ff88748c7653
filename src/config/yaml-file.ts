import type YAMLModule from 'yaml';
import { lazyRequire } from '../lazy-require.js';
import { ConfigError } from './errors.js';

/** The yaml package, loaded with the first file read. */
export const yaml = lazyRequire<typeof YAMLModule>('yaml');

/** Reads a YAML configuration file into a mapping; every problem is a ConfigError naming the file. */
export function readYaml(path: string, read: (p: string) => string): Record<string, unknown> {
  let text: string;
  try {
    text = read(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`--config.file ${path}: cannot read the file (${code})`);
  }
  let doc: unknown;
  try {
    doc = yaml().parse(text);
  } catch (err) {
    throw new ConfigError(`--config.file ${path}: ${yamlErrorText(err, text)}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new ConfigError(`--config.file ${path}: expected a mapping at the top level`);
  return doc as Record<string, unknown>;
}

/**
 * A YAML syntax error as a person can act on it: the parser's reason with line and column, then the
 * offending line and a caret under the column.
 */
export function yamlErrorText(err: unknown, text: string): string {
  const e = err as { message?: string; linePos?: { line: number; col: number }[] };
  const reason = String(e.message ?? err).split('\n')[0]!.replace(/:$/, '');
  const pos = e.linePos?.[0];
  if (!pos) return `not valid YAML: ${reason}`;
  const lines = text.split(/\r?\n/);
  const src = lines[pos.line - 1];
  const shownLine = src === undefined || (src === '' && pos.line >= lines.length) ? '(end of file)' : src.replace(/\t/g, ' ');
  const num = `${pos.line} | `;
  const caret = shownLine === '(end of file)' ? '' : `\n    ${' '.repeat(num.length)}${' '.repeat(Math.max(0, pos.col - 1))}^`;
  return `not valid YAML: ${reason}\n    ${num}${shownLine}${caret}`;
}
