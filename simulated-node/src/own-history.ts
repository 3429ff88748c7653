// What happens to the simulated node during a run besides its scenario (issue 43: the moments in which monitors
// cry wolf, as the backtest's healthy noise): its own validator registered again (a validation that ends and is
// re-staked at once; a validator that joins the set after a spell out of it), validators of its L1 registered or
// removed, and stretches in which a share of its validator peers restart around it. These are facts of the node's
// past, not what it does now: a scenario switch keeps them (an upgrade's `down` and back does not undo a re-stake).
// The concern files read them: validator-registry.ts (the own periods and registrations, peers' connections),
// l1-validators.ts (the L1's set), uptime.ts (when peers report again).
// Part of the simulated avalanchego node, an independent oracle ON PURPOSE: this package shares no
// code with the exporter (src/) and has its own CB58, JSON-RPC envelope and constants, so
// that a bug in the exporter's decoding cannot hide behind the same bug here. Do not "fix" this
// duplication (test/sim/independence.test.ts fails on any import from outside this package).

/** One registration of the own validator made during the run (unix s). */
export interface RunRegistration {
  readonly atS: number;
  /**
   * `restake`: the fixed-end validation current then ends at that second with its reward paid (its end shown
   * RESTAKE_NOTICE_S before, as `reward-paid` shows it) and a new one starts; `join`: a new validation (an
   * auto-renewed validator: a new AddAutoRenewedValidatorTx) starts, after a spell out of the set.
   */
  readonly kind: 'restake' | 'join';
}

/** An L1 validator registered (RegisterL1ValidatorTx) or removed during the run, by its extra index. */
export interface L1Change {
  readonly atS: number;
  readonly change: 'register' | 'remove';
  /** the extra validator concerned: the j-th registered during the run (l1-validators.ts extraL1Validator) */
  readonly extra: number;
}

/** A stretch in which a share of the validator peers restart: disconnected, then reporting anew. */
export interface PeerRestart {
  readonly fromS: number;
  readonly toS: number;
  /** share of the validator peers (seeded by `id`) */
  readonly share: number;
  readonly id: number;
}

/** Seconds before a re-stake at which the ending validation's end time is seen (reward-period.ts REWARD_END_AFTER_S). */
export const RESTAKE_NOTICE_S = 60;

export class NodeHistory {
  private readonly regs: RunRegistration[] = [];
  private readonly l1Changes: L1Change[] = [];
  private readonly restarts: PeerRestart[] = [];
  private versionN = 0;

  /** Bumped on every change: part of the node's cache keys (node-model.ts siblingsKey). */
  get version(): number {
    return this.versionN;
  }
  get registrations(): readonly RunRegistration[] {
    return this.regs;
  }
  get l1(): readonly L1Change[] {
    return this.l1Changes;
  }
  get peerRestarts(): readonly PeerRestart[] {
    return this.restarts;
  }

  /** The own validator registers again at `atS` (in time order: a run only moves forward). */
  register(atS: number, kind: RunRegistration['kind']): void {
    this.inOrder(this.regs.at(-1)?.atS, atS);
    this.regs.push({ atS, kind });
    this.versionN++;
  }

  /** An L1 validator registered during the run, or the last one still registered removed (alternately). */
  changeL1(atS: number): L1Change {
    this.inOrder(this.l1Changes.at(-1)?.atS, atS);
    const registered = this.l1Changes.filter((c) => c.change === 'register').length;
    const last = this.l1Changes.at(-1);
    const change: L1Change = last?.change === 'register' ? { atS, change: 'remove', extra: last.extra } : { atS, change: 'register', extra: registered };
    this.l1Changes.push(change);
    this.versionN++;
    return change;
  }

  /** A share of the validator peers restart from `fromS` to `toS`. */
  restartPeers(fromS: number, toS: number, share: number): void {
    if (!(toS > fromS) || !(share > 0 && share <= 1)) throw new RangeError(`a peer restart needs toS > fromS and a share in (0, 1], got ${fromS}, ${toS}, ${share}`);
    this.inOrder(this.restarts.at(-1)?.fromS, fromS);
    this.restarts.push({ fromS, toS, share, id: this.restarts.length });
    this.versionN++;
  }

  private inOrder(last: number | undefined, atS: number): void {
    if (last !== undefined && atS < last) throw new RangeError(`history goes forward: ${atS} is before ${last}`);
  }
}
