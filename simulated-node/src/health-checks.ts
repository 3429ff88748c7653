// Health checks of the simulated node, shaped like avalanchego's api/health (v1.14.2; the other
// versions' differences from versions.ts): results are recomputed in the background and the API serves the
// cached last run; "not yet run" until the first run after a (re)start.
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).
import { PRIMARY_SUBNET_ID } from './avalanche-ids.js';
import { h32, hf } from './deterministic-random.js';
import { goDuration, goPercentF, rfc3339Nano } from './go-format.js';
import { CHAINS, type ChainAlias } from './mainnet-constants.js';
import { buildFailedError, l1ChainCheck } from './blockchains.js';
import type { NodeModel } from './node-model.js';
import { consensusError, stuckBlocks } from './stuck-consensus.js';

export interface CheckResult {
  message?: unknown;
  error?: string;
  timestamp: string;
  duration: number;
  contiguousFailures?: number;
  timeOfFirstFailure?: string;
}

export interface HealthReport {
  checks: Record<string, CheckResult>;
  healthy: boolean;
}

interface CheckDef {
  name: string;
  tags: string[]; // empty = application check (ignores tag filters)
  run: () => { message?: unknown; error?: string };
  noMessage?: boolean;
}

interface CheckState {
  result: CheckResult;
  failures: number;
  firstFailure: string | null;
}

const NOT_YET_RUN = (): CheckResult => ({ error: 'not yet run', timestamp: '0001-01-01T00:00:00Z', duration: 0 });

export class HealthChecker {
  private readonly state = new Map<string, CheckState>();
  private runs = 0;

  constructor(private readonly model: NodeModel) {}

  get hasRun(): boolean {
    return this.runs > 0;
  }

  private defs(): CheckDef[] {
    const m = this.model;
    const defs: CheckDef[] = [
      { name: 'network', tags: [], run: () => this.network() },
      { name: 'router', tags: [], run: () => this.router() },
      { name: 'database', tags: [], run: () => ({}), noMessage: true },
      { name: 'diskspace', tags: [], run: () => this.diskspace() },
      // bls: since v1.12.2.
      ...(m.profile.blsCheck ? [{ name: 'bls', tags: [], run: () => blsCheck(m) }] : []),
      { name: 'bootstrapped', tags: [], run: () => this.bootstrapped() },
      // futureupgrade: since v1.14.1.
      ...(m.profile.futureUpgradeCheck ? [{ name: 'futureupgrade', tags: [], run: () => m.futureUpgrade() }] : []),
    ];
    for (const c of CHAINS) defs.push({ name: c, tags: [PRIMARY_SUBNET_ID], run: () => this.chain(c) });
    // Chains of an L1 are only created once the primary network has bootstrapped.
    // Not tracked: no check; not built (VM missing): a check that always fails (chains/manager.go).
    const l1 = l1ChainCheck(m);
    if (l1 === 'running') defs.push({ name: m.l1ChainId, tags: [m.l1SubnetId], run: () => this.chain('L1') });
    if (l1 === 'build-failed') defs.push({ name: m.l1ChainId, tags: [m.l1SubnetId], run: () => ({ error: buildFailedError(m) }), noMessage: true });
    return defs;
  }

  /**
   * Forgets every result: a restarted node process starts with all its checks "not yet run"
   * (api/health worker: a registered check holds notYetRunResult until its first run).
   */
  reset(): void {
    this.state.clear();
  }

  /**
   * Runs every check (what avalanchego does every --health-check-frequency). `count` runs that fell
   * due since the last look are made as one, on the state of now: the failure counters count all of
   * them, the first failure is stamped `firstAtMs` and the result `lastAtMs` (simulator clock).
   */
  run(count = 1, lastAtMs: number = this.model.now(), firstAtMs: number = lastAtMs): void {
    this.runs += count;
    const defs = this.defs();
    const seen = new Set<string>();
    defs.forEach((d, i) => {
      seen.add(d.name);
      const out = d.run();
      const st = this.state.get(d.name) ?? { result: NOT_YET_RUN(), failures: 0, firstFailure: null };
      const ns = h32(this.model.seed, this.runs, i, 1) % 1_000_000;
      const ts = rfc3339Nano(lastAtMs, ns);
      const duration = 1500 + (h32(this.model.seed, this.runs, i, 2) % (d.tags.length ? 90_000 : 40_000));
      const r: CheckResult = {} as CheckResult;
      if (!d.noMessage && out.message !== undefined) r.message = out.message;
      if (out.error !== undefined) {
        r.error = out.error;
        if (st.firstFailure === null) st.firstFailure = rfc3339Nano(firstAtMs, ns);
        st.failures += count;
      } else {
        st.failures = 0;
        st.firstFailure = null;
      }
      r.timestamp = ts;
      r.duration = duration;
      if (st.failures > 0) r.contiguousFailures = st.failures;
      if (st.firstFailure !== null) r.timeOfFirstFailure = st.firstFailure;
      st.result = r;
      this.state.set(d.name, st);
    });
    for (const k of [...this.state.keys()]) if (!seen.has(k)) this.state.delete(k);
  }

  private resultOf(name: string): CheckResult {
    return this.state.get(name)?.result ?? NOT_YET_RUN();
  }

  /** GET /ext/health, health.health: checks matching `tags` plus all application checks. */
  health(tags: string[]): HealthReport {
    const defs = this.defs();
    const checks: Record<string, CheckResult> = {};
    let healthy = true;
    const names = defs
      .filter((d) => tags.length === 0 || d.tags.length === 0 || d.tags.some((t) => tags.includes(t)))
      .map((d) => d.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const n of names) {
      const r = this.resultOf(n);
      checks[n] = r;
      if (r.error !== undefined) healthy = false;
    }
    return { checks, healthy };
  }

  /** readiness: only the `bootstrapped` check (an application check). */
  readiness(): HealthReport {
    const r = this.resultOf('bootstrapped');
    return { checks: { bootstrapped: r }, healthy: r.error === undefined };
  }

  liveness(): HealthReport {
    return { checks: {}, healthy: true };
  }

  // -------------------------------------------------------------------------

  private network(): { message?: unknown; error?: string } {
    const m = this.model;
    const peers = m.peers();
    const connected = peers.length;
    const ingress = m.ingressConnections();
    const nowS = Math.floor(m.now() / 1000);
    // `primary network validator health` and its inbound-connection rule: since v1.13.0.
    const validatorHealth = m.profile.validatorHealth;
    const details: Record<string, unknown> = {
      connectedPeers: connected,
      ...(validatorHealth ? { 'primary network validator health': { ingressConnectionCount: ingress, primaryNetworkValidator: m.isValidator } } : {}),
      sendFailRate: Math.round(hf(m.seed, nowS, 81) * 0.004 * 1e6) / 1e6,
    };
    const reasons: string[] = [];
    if (connected > 0) {
      details['timeSinceLastMsgReceived'] = goDuration(1_000_000 + (h32(m.seed, nowS, 82) % 40_000_000));
      details['timeSinceLastMsgSent'] = goDuration(200_000 + (h32(m.seed, nowS, 83) % 20_000_000));
    } else {
      reasons.push('not connected to a minimum of 1 peer(s) only 0');
      reasons.push('no messages received from network');
    }
    if (validatorHealth && m.isValidator && ingress === 0) reasons.push('primary network validator has no inbound connections');
    return reasons.length
      ? { message: details, error: 'network layer is unhealthy reason: ' + reasons.join(', ') }
      : { message: details };
  }

  private router(): { message: unknown } {
    const m = this.model;
    const nowS = Math.floor(m.now() / 1000);
    const n = h32(m.seed, nowS, 91) % 12;
    return {
      message: {
        longestRunningRequest: n === 0 ? '0s' : goDuration(Math.round((50_000 + (h32(m.seed, nowS, 92) % 900_000_000)) / 1000) * 1000),
        outstandingRequests: n,
      },
    };
  }

  private diskspace(): { message: unknown; error?: string } {
    const d = this.model.availableDisk();
    // availableDiskPercentage: since v1.14.1.
    const message = this.model.profile.diskPercentage ? { availableDiskBytes: d.bytes, availableDiskPercentage: d.percent } : { availableDiskBytes: d.bytes };
    if (d.percent < 10) {
      return {
        message,
        error: `remaining available disk space percentage (${d.percent}%) is below warning threshold available space percentage (10%)`,
      };
    }
    return { message };
  }

  private bootstrapped(): { message: unknown; error?: string } {
    if (this.model.bootstrapped) return { message: [] };
    return { message: [PRIMARY_SUBNET_ID], error: 'subnets not bootstrapped' };
  }

  private chain(c: ChainAlias | 'L1'): { message: unknown; error?: string } {
    const m = this.model;
    const nowS = Math.floor(m.now() / 1000);
    let consensus: Record<string, unknown> = {};
    // Blocks waiting on a stopped L1 chain fail its check after 30 s (Topological.HealthCheck). P, X and C under
    // consensus-stuck keep passing, as that scenario says (its timelines were measured so).
    const stuck = c === 'L1' && m.bootstrapped ? stuckBlocks(m.active, c, m.now(), m.scenarioSinceMs) : undefined;
    if (m.bootstrapped) {
      const h = m.height(c);
      const baseMs = { P: 2100, X: 1200, C: 1500, L1: 1900 }[c];
      const acc = (baseMs + (h32(m.seed, nowS, c.charCodeAt(0), 101) % 400)) * 1_000_000;
      const processing = stuck?.processing ?? h32(m.seed, nowS, c.charCodeAt(0), 102) % 3;
      const longest = stuck ? stuck.oldestMs * 1e6 : processing === 0 ? 0 : (20 + (h32(m.seed, nowS, 103) % 900)) * 1_000_000;
      consensus = {
        ...(m.profile.avgAcceptanceTime ? { avgAcceptanceTime: goDuration(acc) } : {}),
        lastAcceptedHeight: h,
        lastAcceptedID: c === 'L1' ? m.l1BlockId(h) : m.blockId(c, h),
        longestProcessingBlock: goDuration(longest),
        processingBlocks: processing,
      };
    }
    let networking: { disconnectedValidators: string[]; percentConnected: number };
    if (c === 'L1') {
      networking = m.l1Networking();
    } else {
      const n = m.networking();
      networking = { disconnectedValidators: n.disconnected, percentConnected: n.percentConnected };
    }
    // disconnectedValidators: since v1.11.11.
    const shown = m.profile.disconnectedValidators ? networking : { percentConnected: networking.percentConnected };
    const message = { engine: { consensus, vm: null }, networking: shown };
    const engineError = consensusError(stuck, goDuration);
    const networkingError =
      networking.percentConnected < 0.8 ? `not connected to enough stake: connected to ${goPercentF(networking.percentConnected * 100)}%; required at least 80.000000%` : undefined;
    // handler.HealthCheck: the engine's error, the networking one, or both joined.
    const error = engineError && networkingError ? `engine: ${engineError}; networking: ${networkingError}` : (engineError ?? networkingError);
    return error === undefined ? { message } : { message, error };
  }
}

/** The `bls` health check (node/node.go wrongBLSKeyCheck). */
function blsCheck(m: NodeModel): { message?: string; error?: string } {
  if (!m.isValidator) return { message: 'node is not a validator' };
  const local = m.localBls().publicKey;
  const registered = m.nodeBlsPub;
  if (local !== registered) {
    // Go returns (nil, err): no message.
    return { error: `node has BLS key ${local}, but is registered to the validator set with ${registered}` };
  }
  return { message: 'node has the correct BLS key' };
}
