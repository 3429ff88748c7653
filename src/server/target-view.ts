import type { CollectorOutcome, TargetSnapshot } from '../snapshot.js';

/** A collector's state as the landing page shows it: its outcome in the snapshot, without value and samples. */
export type CollectorStatus = Omit<CollectorOutcome, 'value' | 'samples'>;

/** A target as the landing page shows it. */
export interface TargetView {
  readonly name: string;
  /** Already redacted. */
  readonly url: string;
  readonly reference: boolean;
  readonly up: number | undefined;
  /** The node's own NodeID (info.getNodeID): undefined until known, '' when the API has none (public servers). */
  readonly nodeId?: string;
  /** The node's version (info.getNodeVersion), e.g. avalanchego/1.14.2; undefined until known. */
  readonly nodeVersion?: string;
  readonly collectors: readonly CollectorStatus[];
}

/** What the landing page shows of a target, from its latest snapshot; `redactedUrl` is already redacted. */
export function targetView(s: TargetSnapshot, redactedUrl: string): TargetView {
  return {
    name: s.target.name,
    url: redactedUrl,
    reference: s.target.reference,
    up: s.up,
    nodeId: s.node.nodeId,
    nodeVersion: s.node.version,
    // Without value and samples: the landing page shows neither, and the serving thread is sent this view.
    collectors: s.collectors.map(({ value: _value, samples: _samples, ...status }) => status),
  };
}
