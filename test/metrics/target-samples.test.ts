// A target's samples from its snapshot (src/metrics/target-samples.ts) and their lines: the target
// label, the user labels, and one series per identity whatever the label values hold.
import { describe, expect, it } from 'vitest';
import { DESCRIPTOR_INDEX } from '../../src/metrics/descriptors.js';
import { TargetSegment } from '../../src/metrics/exposition.js';
import { targetOutput } from '../../src/metrics/target-output.js';
import { targetSamples, wellFormedUnique } from '../../src/metrics/target-samples.js';
import type { Sample } from '../../src/model.js';
import type { TargetSnapshot } from '../../src/snapshot.js';

const spec = { name: 'a', reference: false, validatorNodeIds: [], subnets: [], chains: [] };

function snapshot(name: string, samples: readonly Sample[]): TargetSnapshot {
  const c = { name: 'info-peers', enabled: true, intervalSeconds: 30, ran: true, success: true, durationSeconds: 0.01, errors: [], value: undefined, samples };
  return { target: { ...spec, name }, at: 0, up: 1, collectors: [c], requests: [], skippedTicks: 0, node: {} } as unknown as TargetSnapshot;
}

const text = (seg: TargetSegment) => [...seg.chunks.values()].map((b) => b.toString()).join('');

describe('target samples', () => {
  it('behavior: the same samples take the target\'s user labels when they change (a reload)', () => {
    const run: Sample[] = [{ name: 'avax_peers_by_version', labels: { version: 'avalanchego/1.14.2' }, value: 7 }];
    const samples = targetSamples(snapshot('a', run), [], 0);
    const plain = text(new TargetSegment(samples, DESCRIPTOR_INDEX));
    const dressed = text(new TargetSegment(samples, DESCRIPTOR_INDEX, targetOutput({ ...spec, labels: { region: 'eu' } }, DESCRIPTOR_INDEX)));
    expect(plain).toContain('avax_peers_by_version{target="a",version="avalanchego/1.14.2"} 7\n');
    expect(dressed).toContain('avax_peers_by_version{target="a",version="avalanchego/1.14.2",region="eu"} 7\n');
    expect(text(new TargetSegment(samples, DESCRIPTOR_INDEX))).toBe(plain);
  });

  it('behavior: series equal once lone surrogates become U+FFFD are one; label values with separators stay apart', () => {
    const out = wellFormedUnique(
      [
        { name: 'avax_peers_by_version', labels: { version: 'v\ud800' }, value: 1 },
        { name: 'avax_peers_by_version', labels: { version: 'v\ufffd' }, value: 2 },
        { name: 'avax_peers_by_version', labels: { version: '1:a' }, value: 3 },
        { name: 'avax_peers_by_version', labels: { version: '1:a', chain: '' }, value: 4 },
        { name: 'avax_peers_by_version', labels: { chain: '1:a' }, value: 5 },
      ],
      't',
    );
    expect(out.map((s) => s.value)).toEqual([1, 3, 4, 5]);
    expect(out[0]!.labels).toEqual({ target: 't', version: 'v\ufffd' });
  });
});
