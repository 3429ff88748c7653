// Configuration files for the real Prometheus and Alertmanager, and Prometheus HTTP API calls.

export function prometheusConfig(o: { exporter: string; alertmanager: string; ruleGlob: string }): string {
  return `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - ${JSON.stringify(o.ruleGlob)}
alerting:
  alertmanagers:
    - static_configs:
        - targets: [${JSON.stringify(o.alertmanager)}]
scrape_configs:
  - job_name: avalanche-exporter
    static_configs:
      - targets: [${JSON.stringify(o.exporter)}]
`;
}

/** One notification per alert (group_by '...'), sent 1 s after it fires or resolves. */
export function alertmanagerConfig(o: { webhook: string }): string {
  return `route:
  receiver: test-webhook
  group_by: ['...']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: test-webhook
    webhook_configs:
      - url: ${JSON.stringify(o.webhook)}
        send_resolved: true
`;
}

export interface PromResult {
  resultType: 'vector' | 'matrix' | 'scalar' | 'string';
  result: unknown;
}

/** An instant query, at `time` (Unix seconds) when given, so that two queries can see the same data. */
export async function promQuery(base: string, query: string, time?: number): Promise<PromResult> {
  const params = new URLSearchParams({ query, ...(time === undefined ? {} : { time: String(time) }) });
  const r = await fetch(`${base}/api/v1/query?${params}`, { signal: AbortSignal.timeout(5_000) });
  const j = (await r.json()) as { status: string; data?: PromResult; error?: string };
  if (j.status !== 'success' || !j.data) throw new Error(`query ${query}: ${j.error ?? `HTTP ${r.status}`}`);
  return j.data;
}

/** Number of series (vector/matrix) or 1 for a scalar/string result. */
export function resultSize(r: PromResult): number {
  return Array.isArray(r.result) ? r.result.length : 1;
}

export interface PromAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  value: string;
}

export async function promAlerts(base: string): Promise<PromAlert[]> {
  const r = await fetch(`${base}/api/v1/alerts`, { signal: AbortSignal.timeout(5_000) });
  const j = (await r.json()) as { data: { alerts: PromAlert[] } };
  return j.data.alerts;
}
