// A timeline as a sorted list of actions in simulated time: its explicit events, and the background
// noise drawn from its seed (upgrades with a re-bootstrap, process restarts, slow stretches, exporter
// restarts). Pure: the same timeline gives the same plan. Noise on a node keeps clear of that node's
// explicit events (30 minutes before to 1 hour after), so that a fault is scored on its own; noise
// of the exporter keeps clear of the exporter's events the same way.
import type { NoiseSpec, Timeline, TimelineEvent } from './timeline.js';
import { nameKey, Stream } from './random.js';

export type Action =
  | { readonly kind: 'scenario'; readonly node: number; readonly scenario: string }
  | { readonly kind: 'restart'; readonly node: number; readonly firstRunMs?: number }
  | { readonly kind: 'exporter'; readonly up: boolean }
  | { readonly kind: 'scrapes'; readonly missed: boolean }
  | { readonly kind: 'timeouts'; readonly node: number; readonly rate: number }
  /** the node's history (simulated-node/src/own-history.ts): a re-stake, a join at the end of a spell out of the set, an L1 validator registered or removed, peers restarting for `forMs` */
  | { readonly kind: 'restake' | 'join' | 'l1-change'; readonly node: number }
  | { readonly kind: 'peer-restart'; readonly node: number; readonly share: number; readonly forMs: number };

export interface PlannedAction {
  /** offset from the start of the timeline, ms */
  readonly atMs: number;
  readonly action: Action;
  /** the explicit event it comes from, or undefined for noise */
  readonly event?: number;
  /** what caused it, for the report: `upgrade`, `slow`, `fault: down`, … */
  readonly cause: string;
}

/** A stretch of time in which something happened, for the report and the attribution of alerts. */
export interface Episode {
  readonly startMs: number;
  readonly endMs: number;
  /** undefined: the exporter (every target) */
  readonly node?: number;
  readonly cause: string;
  readonly event?: number;
}

export interface Plan {
  readonly actions: readonly PlannedAction[];
  readonly noise: readonly Episode[];
}

const BEFORE_EVENT_MS = 30 * 60_000;
const AFTER_EVENT_MS = 60 * 60_000;

function nodesOf(e: TimelineEvent, nodes: number): number[] {
  return e.node !== undefined ? [e.node] : Array.from({ length: nodes }, (_, i) => i);
}

/**
 * How long an explicit event lasts (its effect, not the alerts after it), on a timeline of `durationMs`: a
 * scenario without `for` is never switched back, so it lasts until the end.
 */
export function eventSpanMs(e: TimelineEvent, durationMs: number): number {
  switch (e.do) {
    case 'scenario':
      return e.for ?? Math.max(0, durationMs - e.at);
    case 'upgrade':
      return e.down + e.rebootstrap;
    case 'exporter-restart':
      return e.downtime;
    case 'restart':
      return e.firstRun ?? 30_000;
    case 'join':
      return e.out;
    case 'restake':
    case 'l1-change':
      return 0;
    default:
      return e.for ?? 0;
  }
}

function eventActions(e: TimelineEvent, index: number, nodes: number, durationMs: number): PlannedAction[] {
  const out: PlannedAction[] = [];
  const add = (atMs: number, action: Action, cause: string) => out.push({ atMs, action, event: index, cause });
  // Switched on at the event, back off at the end of its span: the span the alerts are attributed by (eventSpanMs).
  const stretch = (on: Action, onCause: string, off: Action, offCause: string) => {
    add(e.at, on, onCause);
    add(e.at + eventSpanMs(e, durationMs), off, offCause);
  };
  const label = e.do === 'scenario' ? `${e.scenario}` : e.do;
  for (const node of e.do === 'exporter-restart' || e.do === 'exporter-down' || e.do === 'missed-scrapes' ? [-1] : nodesOf(e, nodes)) {
    switch (e.do) {
      case 'scenario':
        add(e.at, { kind: 'scenario', node, scenario: e.scenario }, label);
        if (e.for !== undefined) add(e.at + e.for, { kind: 'scenario', node, scenario: 'healthy' }, `${label} ends`);
        break;
      case 'upgrade':
        add(e.at, { kind: 'scenario', node, scenario: 'down' }, 'upgrade: stopped');
        add(e.at + e.down, { kind: 'scenario', node, scenario: 'bootstrapping' }, 'upgrade: bootstrapping');
        add(e.at + e.down + e.rebootstrap, { kind: 'scenario', node, scenario: 'healthy' }, 'upgrade: bootstrapped');
        break;
      case 'restart':
        add(e.at, { kind: 'restart', node, firstRunMs: e.firstRun }, 'restart');
        break;
      case 'timeouts':
        stretch({ kind: 'timeouts', node, rate: e.rate }, `timeouts ${e.rate}`, { kind: 'timeouts', node, rate: 0 }, 'timeouts end');
        break;
      case 'exporter-restart':
        stretch({ kind: 'exporter', up: false }, 'exporter restart: stopped', { kind: 'exporter', up: true }, 'exporter restart: started');
        break;
      case 'exporter-down':
        stretch({ kind: 'exporter', up: false }, 'exporter down', { kind: 'exporter', up: true }, 'exporter back');
        break;
      case 'missed-scrapes':
        stretch({ kind: 'scrapes', missed: true }, 'scrapes missed', { kind: 'scrapes', missed: false }, 'scrapes back');
        break;
      case 'restake':
      case 'l1-change':
        add(e.at, { kind: e.do, node }, e.do);
        break;
      case 'join':
        for (const [dt, action] of joinSteps(node, e.out)) add(e.at + dt, action, 'join');
        break;
      case 'peer-restart':
        add(e.at, { kind: 'peer-restart', node, share: e.share, forMs: e.for }, 'peer restart');
        break;
    }
  }
  return out;
}

/** A join: out of the validator set for `outMs`, then a validator again with a new registration. */
function joinSteps(node: number, outMs: number): [number, Action][] {
  return [
    [0, { kind: 'scenario', node, scenario: 'not-a-validator' }],
    [outMs, { kind: 'scenario', node, scenario: 'healthy' }],
    [outMs, { kind: 'join', node }],
  ];
}

/** Busy stretches per node (-1: the exporter) that noise must keep clear of. */
function reserved(t: Timeline): Map<number, [number, number][]> {
  const busy = new Map<number, [number, number][]>();
  const mark = (node: number, a: number, b: number) => busy.set(node, [...(busy.get(node) ?? []), [a - BEFORE_EVENT_MS, b + AFTER_EVENT_MS]]);
  for (const e of t.events) {
    const end = e.at + eventSpanMs(e, t.duration);
    if (e.do === 'exporter-restart' || e.do === 'exporter-down' || e.do === 'missed-scrapes') mark(-1, e.at, end);
    else for (const n of nodesOf(e, t.fleet.nodes)) mark(n, e.at, end);
  }
  return busy;
}

interface NoiseKind {
  readonly name: string;
  readonly every: number;
  readonly exporter: boolean;
  /** the episode's actions from its start, and its length */
  readonly draw: (s: Stream, node: number) => { span: number; actions: [number, Action][] };
}

/** An episode of a random length within `range`: `from` at its start, `to` at its end. */
function switchFor(s: Stream, range: readonly [number, number], from: Action, to: Action): { span: number; actions: [number, Action][] } {
  const span = s.between(range[0], range[1]);
  return { span, actions: [[0, from], [span, to]] };
}

function noiseKinds(n: NoiseSpec): NoiseKind[] {
  const kinds: NoiseKind[] = [];
  if (n.upgrades) {
    const u = n.upgrades;
    kinds.push({
      name: 'upgrade',
      every: u.every,
      exporter: false,
      draw: (s, node) => {
        const down = s.between(u.down[0], u.down[1]);
        const boot = s.between(u.rebootstrap[0], u.rebootstrap[1]);
        return {
          span: down + boot,
          actions: [
            [0, { kind: 'scenario', node, scenario: 'down' }],
            [down, { kind: 'scenario', node, scenario: 'bootstrapping' }],
            [down + boot, { kind: 'scenario', node, scenario: 'healthy' }],
          ],
        };
      },
    });
  }
  if (n.restarts) kinds.push({ name: 'restart', every: n.restarts.every, exporter: false, draw: (_s, node) => ({ span: 30_000, actions: [[0, { kind: 'restart', node }]] }) });
  if (n.slow) {
    const w = n.slow;
    kinds.push({ name: 'slow', every: w.every, exporter: false, draw: (s, node) => switchFor(s, w.for, { kind: 'scenario', node, scenario: 'slow' }, { kind: 'scenario', node, scenario: 'healthy' }) });
  }
  // The node's history (simulated-node/src/own-history.ts): moments in which monitors cry wolf (issue 43).
  if (n.restakes) kinds.push({ name: 'restake', every: n.restakes.every, exporter: false, draw: (_s, node) => ({ span: 0, actions: [[0, { kind: 'restake', node }]] }) });
  if (n.joins) {
    const j = n.joins;
    kinds.push({ name: 'join', every: j.every, exporter: false, draw: (s, node) => {
      const out = s.between(j.out[0], j.out[1]);
      return { span: out, actions: joinSteps(node, out) };
    } });
  }
  if (n.l1Changes) kinds.push({ name: 'L1 change', every: n.l1Changes.every, exporter: false, draw: (_s, node) => ({ span: 0, actions: [[0, { kind: 'l1-change', node }]] }) });
  if (n.peerRestarts) {
    const p = n.peerRestarts;
    kinds.push({ name: 'peer restart', every: p.every, exporter: false, draw: (s, node) => {
      const share = p.share[0] + (p.share[1] - p.share[0]) * s.next();
      const forMs = s.between(p.for[0], p.for[1]);
      return { span: forMs, actions: [[0, { kind: 'peer-restart', node, share, forMs }]] };
    } });
  }
  if (n.exporterRestarts) {
    const r = n.exporterRestarts;
    kinds.push({ name: 'exporter restart', every: r.every, exporter: true, draw: (s) => switchFor(s, r.downtime, { kind: 'exporter', up: false }, { kind: 'exporter', up: true }) });
  }
  return kinds;
}

/** The timeline's actions, sorted by time (stable: an event's actions keep their order). */
export function planTimeline(t: Timeline): Plan {
  const actions: PlannedAction[] = [];
  t.events.forEach((e, i) => actions.push(...eventActions(e, i, t.fleet.nodes, t.duration)));
  const busy = reserved(t);
  const noise: Episode[] = [];
  for (const kind of noiseKinds(t.noise)) {
    for (const node of kind.exporter ? [-1] : Array.from({ length: t.fleet.nodes }, (_, i) => i)) {
      const s = new Stream(t.seed, nameKey(kind.name), node + 1);
      let at = s.exponential(kind.every);
      while (at < t.duration) {
        const start = Math.round(at);
        const { span, actions: steps } = kind.draw(s, node);
        const overlaps = (busy.get(node) ?? []).some(([a, b]) => start < b && start + span > a);
        if (!overlaps && start + span < t.duration) {
          for (const [dt, action] of steps) actions.push({ atMs: start + dt, action, cause: kind.name });
          noise.push({ startMs: start, endMs: start + span, node: node < 0 ? undefined : node, cause: kind.name });
          // episodes of one node never overlap: the next one starts after this one
          busy.set(node, [...(busy.get(node) ?? []), [start, start + span]]);
        }
        at += Math.max(span + 60_000, s.exponential(kind.every));
      }
    }
  }
  const order = actions.map((a, i) => ({ a, i }));
  order.sort((x, y) => x.a.atMs - y.a.atMs || x.i - y.i);
  return { actions: order.map((o) => o.a), noise: noise.sort((a, b) => a.startMs - b.startMs) };
}
