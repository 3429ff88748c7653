// The sources of a package as the import tests read them (test/architecture/imports.test.ts,
// test/sim/independence.test.ts): the files below a folder, and the module specifiers a source names.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` (sub-folders included) whose name matches `name`. */
export function filesBelow(dir: string, name: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? filesBelow(p, name) : name.test(e.name) ? [p] : [];
  });
}

/** Every module specifier of a TypeScript source: import/export … from (type-only too), side-effect imports, import(), require(). */
export function specifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1] as string);
  return out;
}
