/**
 * `avalanche-exporter generate --out DIR [--config monitoring.yaml]`: the alert rules and dashboards
 * fitted to the user's settings. Loaded lazily by src/cli.ts, so the exporter's `run` never loads the
 * Grafana SDK. Every problem with the arguments or the settings is a MonitoringSettingsError (exit 2).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { didYouMean } from '../config/suggest.js';
import { VERSION } from '../version.js';
import { generateHeader, renderFiles, writeFiles } from './generate.js';
import { DEFAULT_SETTINGS, MonitoringSettingsError, parseSettingsYaml, type MonitoringSettings } from './settings.js';

export { MonitoringSettingsError };

export const GENERATE_HELP = `avalanche-exporter generate: writes the alert rules and Grafana dashboards fitted to your setup.

Usage:
  avalanche-exporter generate --out DIR [--config monitoring.yaml]
  avalanche-exporter generate --format prometheusrule|configmap|prometheus-chart [--out FILE] [--config monitoring.yaml]
                              [--namespace NS] [--label name=value]... [--name PREFIX] [--dashboard-label name=value]

  --config FILE   monitoring settings (label selector, datasource, thresholds, rule groups, dashboards,
                  severity labels, runbook URL); see examples/monitoring.yaml. Without it: the defaults,
                  the same files as the package's alerts/ and dashboards/.
  --out DIR       writes DIR/alerts/<group>.rules.yaml and DIR/dashboards/avalanche-<name>.json. Files
                  there are replaced only if an earlier generate wrote them; generated files of groups
                  or dashboards you no longer select are removed.
  --format F      files (the default: the two directories above), or Kubernetes YAML on stdout (or to
                  --out FILE): prometheusrule: one PrometheusRule (monitoring.coreos.com/v1) per rule group;
                  configmap: one ConfigMap per dashboard, labelled for Grafana's dashboard sidecar;
                  prometheus-chart: the serverFiles values of the prometheus-community prometheus chart.
  --label k=v     a label on every PrometheusRule and ConfigMap (repeatable), e.g. release=kube-prometheus-stack:
                  the label kube-prometheus-stack's ruleSelector wants (its Helm release name)
  --namespace NS  metadata.namespace of every object (default: none, kubectl's namespace)
  --name PREFIX   the objects' names are PREFIX-<group> and PREFIX-dashboard-<name> (default avalanche-exporter,
                  the names the Helm chart deploy/helm/avalanche-exporter gives them for a release of that name)
  --dashboard-label k=v
                  the dashboard sidecar's label (default grafana_dashboard=1)

Then: promtool check rules DIR/alerts/*.rules.yaml, point Prometheus' rule_files at DIR/alerts/*.rules.yaml
and Grafana's dashboard provider at DIR/dashboards (examples/grafana/provisioning).
`;

const FLAGS = ['config', 'out', 'format', 'label', 'namespace', 'name', 'dashboard-label', 'help'] as const;
export const FORMATS = ['files', 'prometheusrule', 'configmap', 'prometheus-chart'] as const;
export type GenerateFormat = (typeof FORMATS)[number];
const SINGLE = ['config', 'out', 'format', 'namespace', 'name'] as const;
const LABEL_NAME = /^[A-Za-z0-9]([A-Za-z0-9._/-]{0,251}[A-Za-z0-9])?$/;

export interface GenerateArgs {
  config?: string;
  out?: string;
  format: GenerateFormat;
  namespace?: string;
  name: string;
  labels: Record<string, string>;
  dashboardLabel: [string, string];
  help: boolean;
}

function labelArg(flag: string, value: string): [string, string] {
  const eq = value.indexOf('=');
  const k = value.slice(0, eq);
  const v = value.slice(eq + 1);
  if (eq < 1 || !LABEL_NAME.test(k) || !/^([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$/.test(v)) {
    throw new MonitoringSettingsError(`generate: --${flag} ${JSON.stringify(value)}: expected name=value, a Kubernetes label (letters, digits, . _ - /)`);
  }
  return [k, v];
}

export function parseGenerateArgs(argv: readonly string[]): GenerateArgs {
  const out: GenerateArgs = { help: false, format: 'files', name: 'avalanche-exporter', labels: {}, dashboardLabel: ['grafana_dashboard', '1'] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      out.help = true;
      continue;
    }
    const m = /^--([a-z.-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new MonitoringSettingsError(`generate: unexpected argument ${JSON.stringify(arg)} (generate takes --config FILE and --out DIR)`);
    const name = m[1]!;
    if (name === 'help' || !(FLAGS as readonly string[]).includes(name)) {
      throw new MonitoringSettingsError(`generate: unknown flag --${name} (generate takes --config FILE and --out DIR)${didYouMean(name, FLAGS, (f) => `--${f}`)}`);
    }
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === '' || value.startsWith('--')) throw new MonitoringSettingsError(`generate: flag --${name} needs a value`);
    if (name === 'label') {
      const [k, v] = labelArg(name, value);
      out.labels[k] = v;
    } else if (name === 'dashboard-label') out.dashboardLabel = labelArg(name, value);
    else if (name === 'format') {
      if (!(FORMATS as readonly string[]).includes(value)) throw new MonitoringSettingsError(`generate: --format ${JSON.stringify(value)}: expected one of ${FORMATS.join(', ')}${didYouMean(value, FORMATS, (f) => f)}`);
      out.format = value as GenerateFormat;
    } else out[name as Exclude<(typeof SINGLE)[number], 'format'>] = value;
  }
  if (out.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(out.namespace)) throw new MonitoringSettingsError(`generate: --namespace ${JSON.stringify(out.namespace)}: expected a Kubernetes namespace name`);
  if (!/^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$/.test(out.name)) throw new MonitoringSettingsError(`generate: --name ${JSON.stringify(out.name)}: expected a lower-case DNS name of at most 42 characters`);
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

/** The Kubernetes YAML of a `--format` other than files; its modules (and the typed models) load only here. */
export async function renderFormat(args: GenerateArgs, settings: MonitoringSettings, header: string): Promise<string> {
  const o = { name: args.name, labels: args.labels, ...(args.namespace ? { namespace: args.namespace } : {}) };
  if (args.format === 'prometheus-chart') return (await import('./formats/prometheus-chart.js')).prometheusChartValues(settings, header);
  const { yamlStream } = await import('./formats/kubernetes.js');
  if (args.format === 'configmap') return yamlStream(header, (await import('./formats/configmap.js')).dashboardConfigMaps(settings, header, o, args.dashboardLabel));
  return yamlStream(header, (await import('./formats/prometheusrule.js')).prometheusRules(settings, o));
}

/** Runs the command; output goes to `write` (stdout). */
export async function generateCommand(argv: readonly string[], write: (s: string) => void = (s) => process.stdout.write(s)): Promise<void> {
  const args = parseGenerateArgs(argv);
  if (args.help) {
    write(GENERATE_HELP);
    return;
  }
  const k8sOnly = argv.filter((a) => /^--(label|namespace|name|dashboard-label)(=|$)/.test(a));
  if (k8sOnly.length > 0 && (args.format === 'files' || args.format === 'prometheus-chart')) {
    throw new MonitoringSettingsError(`generate: ${k8sOnly[0]!.split('=')[0]} is for the Kubernetes objects (--format prometheusrule or configmap), not --format ${args.format}`);
  }
  if (args.format !== 'files') {
    const settings = args.config ? readSettings(args.config) : DEFAULT_SETTINGS;
    const text = await renderFormat(args, settings, generateHeader(VERSION, args.config));
    if (args.out) writeFileSync(args.out, text);
    else write(text);
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
