/**
 * `avalanche-exporter generate --out DIR [--config monitoring.yaml]`: the alert rules and dashboards
 * fitted to the user's settings. Loaded lazily by src/cli.ts, so the exporter's `run` never loads the
 * Grafana SDK. Every problem with the arguments or the settings is a MonitoringSettingsError (exit 2).
 */
import { readFileSync } from 'node:fs';
import { didYouMean } from '../config/suggest.js';
import { VERSION } from '../version.js';
import { generateHeader, renderFiles, writeFiles } from './generate.js';
import { DEFAULT_SETTINGS, MonitoringSettingsError, parseSettingsYaml, type MonitoringSettings } from './settings.js';

export { MonitoringSettingsError };

export const GENERATE_HELP = `avalanche-exporter generate: writes the alert rules and Grafana dashboards fitted to your setup.

Usage:
  avalanche-exporter generate --out DIR [--config monitoring.yaml]

  --config FILE   monitoring settings (label selector, datasource, thresholds, rule groups, dashboards,
                  severity labels, runbook URL); see examples/monitoring.yaml. Without it: the defaults,
                  the same files as the package's alerts/ and dashboards/.
  --out DIR       writes DIR/alerts/<group>.rules.yaml and DIR/dashboards/avalanche-<name>.json. Files
                  there are replaced only if an earlier generate wrote them; generated files of groups
                  or dashboards you no longer select are removed.

Then: promtool check rules DIR/alerts/*.rules.yaml, point Prometheus' rule_files at DIR/alerts/*.rules.yaml
and Grafana's dashboard provider at DIR/dashboards (examples/grafana/provisioning).
`;

const FLAGS = ['config', 'out', 'help'] as const;

export interface GenerateArgs {
  config?: string;
  out?: string;
  help: boolean;
}

export function parseGenerateArgs(argv: readonly string[]): GenerateArgs {
  const out: GenerateArgs = { help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    const m = /^--([a-z.-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new MonitoringSettingsError(`generate: unexpected argument ${JSON.stringify(arg)} (generate takes --config FILE and --out DIR)`);
    const name = m[1]!;
    if (name !== 'config' && name !== 'out') {
      throw new MonitoringSettingsError(`generate: unknown flag --${name} (generate takes --config FILE and --out DIR)${didYouMean(name, FLAGS, (f) => `--${f}`)}`);
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new MonitoringSettingsError(`generate: flag --${name} needs a value`);
    out[name] = value;
  }
  return out;
}

function readSettings(file: string): MonitoringSettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new MonitoringSettingsError(`--config ${file}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  return parseSettingsYaml(text, file);
}

/** Runs the command; output goes to `write` (stdout). */
export function generateCommand(argv: readonly string[], write: (s: string) => void = (s) => process.stdout.write(s)): void {
  const args = parseGenerateArgs(argv);
  if (args.help) {
    write(GENERATE_HELP);
    return;
  }
  if (!args.out) throw new MonitoringSettingsError('generate: --out DIR is required (where to write alerts/ and dashboards/)');
  const settings = args.config ? readSettings(args.config) : DEFAULT_SETTINGS;
  const files = renderFiles(settings, generateHeader(VERSION, args.config));
  const { written, removed } = writeFiles(args.out, files, { protect: true });
  const lines = files.filter((f) => written.includes(f.path)).map((f) => `  ${f.path} (${f.summary})`);
  write(
    `avalanche-exporter generate: wrote ${written.length} file(s) to ${args.out}${args.config ? ` with the settings of ${args.config}` : ' with the default settings'}\n${lines.join('\n')}\n` +
      (removed.length ? `removed (no longer selected): ${removed.join(', ')}\n` : '') +
      (settings.groups.length ? `check the rules with: promtool check rules ${args.out}/alerts/*.rules.yaml\n` : ''),
  );
}
