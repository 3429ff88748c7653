// The Dockerfile read as its instructions, and a replay of its stages in a throw-away directory (no Docker
// engine runs here): each stage's `/` is a folder of its own, WORKDIR, COPY (from the build context, with
// .dockerignore, or --from another stage) and RUN (through sh, with the stage's ENV) done as Docker would.
// The instructions come from the Dockerfile itself, so a new COPY (a workspace package) is replayed too.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

export interface Instruction {
  op: string;
  /** The rest of the line, continuation lines joined. */
  args: string;
}
export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, in order (an unnamed stage is called by its index). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const m = /^(\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = m[1]!.toUpperCase();
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(m[2]!)!;
      stages.push({ name: f[2] ?? String(stages.length), from: f[1]!, instructions: [] });
    } else stages.at(-1)?.instructions.push({ op, args: m[2]! });
  }
  return stages;
}

/** An exec-form (JSON array) argument list. */
export const execForm = (args: string): string[] => JSON.parse(args) as string[];

/** .dockerignore's patterns as a test of a path relative to the context (the simple forms: names and `*` globs). */
function ignoreMatcher(context: string): (rel: string) => boolean {
  const file = join(context, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
        .map((p) => new RegExp(`^${p.replace(/^\//, '').replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}(/|$)`))
    : [];
  return (rel) => patterns.some((re) => re.test(rel));
}

export interface Replay {
  /** Each stage's `/`. */
  roots: Record<string, string>;
  /** Each stage's last WORKDIR and ENV. */
  workdir: Record<string, string>;
  env: Record<string, Record<string, string>>;
  log: string[];
}

export interface ReplayOptions {
  context: string;
  dir: string;
  /** A RUN command (one of its `&&` parts) replaced by another, or undefined to run it as it is. */
  substitute?: (stage: Stage, command: string) => string | undefined;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export function replay(stages: readonly Stage[], o: ReplayOptions): Replay {
  const r: Replay = { roots: {}, workdir: {}, env: {}, log: [] };
  const ignored = ignoreMatcher(o.context);
  for (const stage of stages) {
    const root = join(o.dir, `stage-${stage.name}`);
    mkdirSync(root, { recursive: true });
    r.roots[stage.name] = root;
    let cwd = '/';
    const env: Record<string, string> = {};
    const inRoot = (p: string) => join(root, posix.resolve(cwd, p));
    for (const ins of stage.instructions) {
      if (ins.op === 'WORKDIR') {
        cwd = posix.resolve(cwd, ins.args);
        mkdirSync(inRoot('.'), { recursive: true });
      } else if (ins.op === 'ENV') {
        for (const m of ins.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
      } else if (ins.op === 'COPY') {
        const words = ins.args.split(/\s+/);
        const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
        const paths = words.filter((w) => !w.startsWith('--'));
        const dest = paths.pop()!;
        const destIsDir = dest.endsWith('/') || paths.length > 1;
        for (const src of paths) {
          const source = from ? join(r.roots[from] ?? `${o.dir}/unknown-stage-${from}`, posix.resolve('/', src)) : join(o.context, src);
          if (!existsSync(source)) throw new Error(`COPY ${ins.args}: ${from ? `stage ${from}` : 'the build context'} has no ${src}`);
          const target = destIsDir && !statSync(source).isDirectory() ? join(inRoot(dest), posix.basename(src)) : inRoot(dest);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(source, target, {
            recursive: true,
            filter: (p) => from !== undefined || !ignored(relative(o.context, p).split('\\').join('/')),
          });
        }
        r.log.push(`COPY ${ins.args}`);
      } else if (ins.op === 'RUN') {
        for (const part of ins.args.replace(/\s+#.*$/, '').split('&&').map((p) => p.trim())) {
          const command = o.substitute?.(stage, part) ?? part;
          r.log.push(`RUN ${command}`);
          execFileSync('sh', ['-c', command], { cwd: inRoot('.'), env: { ...process.env, ...o.env, ...env }, stdio: 'pipe', timeout: o.timeoutMs ?? 180_000 });
        }
      }
    }
    r.workdir[stage.name] = inRoot('.');
    r.env[stage.name] = env;
  }
  return r;
}
