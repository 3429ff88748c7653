// Which firing alerts become notifications (backtest/src/notifications.ts) with the shipped
// examples/alertmanager.yml: grouping and its timers, and inhibition, the latter also checked
// against a real Alertmanager (the same alerts posted to it; its `inhibitedBy` must agree).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAlertmanagerConfig, parseMatcher, routesFor } from '../../backtest/src/alertmanager-config.js';
import { heartbeatReceivers, inhibitedAt, notify, type FiringAlert } from '../../backtest/src/notifications.js';
import { freePort, onPath, startService, type Service } from '../../backtest/src/programs.js';

const CONFIG = resolve(import.meta.dirname, '../../examples/alertmanager.yml');
const am = parseAlertmanagerConfig(readFileSync(CONFIG, 'utf8'));
const AM_BIN = onPath('prometheus-alertmanager') ?? onPath('alertmanager');
const CI = !['', '0', 'false'].includes((process.env['CI'] ?? '').toLowerCase());
const MIN = 60_000;
const T0 = 1_767_571_200_000;

const alert = (ref: string, labels: Record<string, string>, from = T0, to?: number): FiringAlert => ({ ref, labels: { severity: 'warning', ...labels }, fromMs: from, toMs: to });

/** The inhibition cases of examples/alertmanager.yml, and alerts that must stay unmuted. */
const CASES: FiringAlert[] = [
  alert('end-info', { alertname: 'AvalancheValidationEndingSoon', severity: 'info', target: 'a', subnet: 's', node_id: 'n' }),
  alert('end-warning', { alertname: 'AvalancheValidationEndingSoon', severity: 'warning', target: 'a', subnet: 's', node_id: 'n' }),
  alert('end-critical', { alertname: 'AvalancheValidationEndingSoon', severity: 'critical', target: 'a', subnet: 's', node_id: 'n' }),
  alert('end-warning-b', { alertname: 'AvalancheValidationEndingSoon', severity: 'warning', target: 'b', subnet: 's', node_id: 'm' }),
  alert('l1-warning', { alertname: 'AvalancheL1ValidatorBalanceLow', severity: 'warning', target: 'a', subnet: 'l1', node_id: 'n' }),
  alert('l1-critical', { alertname: 'AvalancheL1ValidatorBalanceLow', severity: 'critical', target: 'a', subnet: 'l1', node_id: 'n' }),
  alert('lost', { alertname: 'AvalancheValidatorRewardsLost', severity: 'critical', target: 'c', subnet: 'p', node_id: 'x' }),
  alert('below', { alertname: 'AvalancheUptimeBelowRequirement', severity: 'critical', target: 'c' }),
  alert('risk-other', { alertname: 'AvalancheUptimeAtRisk', target: 'd' }),
  alert('bls', { alertname: 'AvalancheValidatorBLSKeyMismatch', severity: 'critical', target: 'e', node_id: 'y' }),
  alert('check-bls', { alertname: 'AvalancheHealthCheckFailing', target: 'e', check: 'bls' }),
  alert('check-network', { alertname: 'AvalancheHealthCheckFailing', target: 'e', check: 'network' }),
  // issue 27: one disk, one page per severity; a watched L1 validator low on balance is also weight at risk
  alert('disk-runway-warning', { alertname: 'AvalancheNodeDiskRunwayShort', severity: 'warning', target: 'f' }),
  alert('disk-low-critical', { alertname: 'AvalancheNodeDiskSpaceLow', severity: 'critical', target: 'f' }),
  alert('disk-runway-other', { alertname: 'AvalancheNodeDiskRunwayShort', severity: 'warning', target: 'g' }),
  alert('check-diskspace', { alertname: 'AvalancheHealthCheckFailing', target: 'f', check: 'diskspace' }),
  alert('check-diskspace-old-node', { alertname: 'AvalancheHealthCheckFailing', target: 'g', check: 'diskspace' }),
  alert('weight-warning', { alertname: 'AvalancheL1WeightAtRisk', severity: 'warning', target: 'a', subnet: 'l1' }),
  alert('weight-critical', { alertname: 'AvalancheL1WeightAtRisk', severity: 'critical', target: 'a', subnet: 'l1' }),
  alert('weight-other-l1', { alertname: 'AvalancheL1WeightAtRisk', severity: 'warning', target: 'a', subnet: 'l1b' }),
];
const EXPECTED_MUTED = ['end-info', 'end-warning', 'l1-warning', 'below', 'check-bls', 'disk-runway-warning', 'check-diskspace', 'weight-warning'];

describe('Alertmanager model', () => {
  it('default: Watchdog goes to the dead man\'s switch of examples/alertmanager.yml, a heartbeat that is never a page', () => {
    const watchdog = { alertname: 'Watchdog', severity: 'info' };
    expect([...heartbeatReceivers(am, [watchdog])]).toEqual(['watchdog']);
    // routed to the people's receiver, it is not a heartbeat: the backtest would count its page
    const root = { ...am, route: { ...am.route, routes: [] } };
    expect([...heartbeatReceivers(root, [watchdog])]).toEqual([]);
  });

  it('default: the inhibit rules of examples/alertmanager.yml mute the lower tiers and the consequences, nothing else', () => {
    const muted = [...inhibitedAt(CASES, am, T0)].filter(([, by]) => by).map(([ref]) => ref);
    expect(muted.sort()).toEqual([...EXPECTED_MUTED].sort());
  });

  it('default: matchers are anchored regexes; a missing label is the empty string', () => {
    const m = parseMatcher('alertname=~"A|B"');
    expect(m.re!.test('A')).toBe(true);
    expect(m.re!.test('AB')).toBe(false);
    expect(parseMatcher('x!=""')).toMatchObject({ name: 'x', op: '!=', value: '' });
    expect(routesFor(am.route, { severity: 'info' })[0]!.repeatIntervalMs).toBe(24 * 3_600_000);
    expect(routesFor(am.route, { severity: 'warning' })[0]!.id).toBe('0');
    // A critical is a group of its own per target and alert (examples/alertmanager.yml): no earlier message holds it back.
    expect(routesFor(am.route, { severity: 'critical' })[0]).toMatchObject({ id: '0.1', groupBy: ['target', 'alertname'], groupIntervalMs: 60_000 });
  });

  it('default: a group pages after group_wait; a later alert of the group at the next group_interval; an alert gone before the flush never pages', () => {
    const { pages, outcomes } = notify(
      [
        alert('x1', { alertname: 'X', target: 'a', check: '1' }, T0),
        alert('x2', { alertname: 'X', target: 'a', check: '2' }, T0 + MIN),
        alert('y', { alertname: 'Y', target: 'a' }, T0, T0 + 20_000),
      ],
      am,
    );
    expect(pages.map((p) => [p.atMs - T0, p.alerts])).toEqual([
      [30_000, ['x1']],
      [30_000 + 5 * MIN, ['x2']],
    ]);
    expect(outcomes.get('y')).toEqual({});
  });

  it('behavior: a group that emptied starts over with group_wait; a muted alert pages once its source resolves', () => {
    const { pages } = notify(
      [
        alert('x-a', { alertname: 'X', target: 'a' }, T0, T0 + 10 * MIN),
        alert('x-b', { alertname: 'X', target: 'a' }, T0 + 60 * MIN),
        alert('crit', { alertname: 'AvalancheValidationEndingSoon', severity: 'critical', target: 't', subnet: 's', node_id: 'n' }, T0, T0 + 12 * MIN),
        alert('warn', { alertname: 'AvalancheValidationEndingSoon', severity: 'warning', target: 't', subnet: 's', node_id: 'n' }, T0),
      ],
      am,
    );
    // pages at the same instant come in group-key order: sort them by what they announce
    const seen = pages.map((p) => [(p.atMs - T0) / 1000, p.alerts.join()] as [number, string]).sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
    expect(seen).toEqual([
      [30, 'crit'],
      [30, 'x-a'],
      [15 * 60 + 30, 'warn'],
      [60 * 60 + 30, 'x-b'],
    ]);
  });
});

describe.skipIf(!AM_BIN && !CI)('inhibition = a real Alertmanager', () => {
  let svc: Service | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'avax-backtest-am-'));
  beforeAll(async () => {
    if (!AM_BIN) throw new Error('prometheus-alertmanager must be on PATH under CI');
    const port = await freePort();
    svc = await startService(
      'alertmanager',
      AM_BIN,
      [`--config.file=${CONFIG}`, `--storage.path=${dir}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=warn'],
      `http://127.0.0.1:${port}`,
      '/-/ready',
      { readyTimeoutMs: 20_000 },
    );
  }, 30_000);
  afterAll(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('default: the alerts Alertmanager marks inhibited are the ones the backtest mutes', async () => {
    const now = new Date();
    const body = CASES.map((a) => ({ labels: { ...a.labels, ref: a.ref }, startsAt: now.toISOString(), endsAt: new Date(now.getTime() + 3_600_000).toISOString() }));
    // `ref` is an extra label on every alert: no inhibit rule names it, so it changes nothing
    const post = await fetch(`${svc!.url}/api/v2/alerts`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(post.status).toBe(200);
    let suppressed: string[] = [];
    for (let i = 0; i < 50; i++) {
      const got = (await (await fetch(`${svc!.url}/api/v2/alerts`)).json()) as { labels: Record<string, string>; status: { state: string; inhibitedBy: string[] } }[];
      suppressed = got.filter((a) => a.status.inhibitedBy.length > 0).map((a) => a.labels['ref']!);
      if (got.length === CASES.length && suppressed.length >= EXPECTED_MUTED.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ours = [...inhibitedAt(CASES, am, T0)].filter(([, by]) => by).map(([ref]) => ref);
    expect(suppressed.sort()).toEqual(ours.sort());
  });
});
