import { describe, expect, it } from 'vitest';
import { Registry, Gauge } from 'prom-client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Exposition, TargetSegment, gzipParts, makeRendered, renderedFromGzip } from '../../src/metrics/exposition.js';
import { escapeLabelValue, formatValue } from '../../src/metrics/render.js';
import { DESCRIPTORS } from '../../src/metrics/descriptors.js';

describe('exposition', () => {
  it('default: one HELP/TYPE per family, families grouped across targets in descriptor order', () => {
    const e = new Exposition((f) => (f === 'avax_up' ? ' Updated every 15s.' : ''));
    e.setTarget('b', new TargetSegment([{ name: 'avax_peers', labels: { target: 'b' }, value: 3 }, { name: 'avax_up', labels: { target: 'b' }, value: 1 }]));
    e.setTarget('a', new TargetSegment([{ name: 'avax_up', labels: { target: 'a' }, value: 0 }]));
    const { text, seriesCount } = e.assemble();
    expect(seriesCount).toBe(3);
    expect(text).toBe(
      '# HELP avax_up 1 if the last collection cycle got an answer from the node (0: no answer at all; its node-derived series are then absent). Updated every 15s.\n# TYPE avax_up gauge\navax_up{target="b"} 1\navax_up{target="a"} 0\n' +
        '# HELP avax_peers Connected peers (info.peers numPeers).\n# TYPE avax_peers gauge\navax_peers{target="b"} 3\n',
    );
    expect(e.assemble('a', false).text).toContain('avax_up{target="a"} 0');
    expect(e.assemble('a', false).text).not.toContain('target="b"');
  });

  it('behavior: a removed target and a family no longer produced disappear', () => {
    const e = new Exposition();
    e.setTarget('a', new TargetSegment([{ name: 'avax_peers_by_version', labels: { target: 'a', version: 'avalanchego/1.14.1' }, value: 2 }]));
    e.setTarget('a', new TargetSegment([{ name: 'avax_peers_by_version', labels: { target: 'a', version: 'avalanchego/1.14.2' }, value: 2 }]));
    expect(e.assemble().text).not.toContain('1.14.1');
    e.removeTarget('a');
    expect(e.assemble().text).toBe('');
  });

  it('behavior: label values are escaped exactly like prom-client does', async () => {
    const nasty = 'q"uo\\te\nnew line – ünïcode';
    const reg = new Registry();
    new Gauge({ name: 'avax_peers', help: 'Connected peers (info.peers numPeers).', labelNames: ['target'], registers: [reg] }).set({ target: nasty }, 5);
    const e = new Exposition();
    e.setTarget('x', new TargetSegment([{ name: 'avax_peers', labels: { target: nasty }, value: 5 }]));
    expect(e.assemble().text).toBe(await reg.metrics());
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
  });

  it('behavior: special float values', () => {
    expect([NaN, Infinity, -Infinity, 0.5, 1e21, -0].map(formatValue)).toEqual(['NaN', '+Inf', '-Inf', '0.5', '1e+21', '0']);
  });

  it('error: samples with no descriptor are reported, not rendered', () => {
    const seg = new TargetSegment([{ name: 'avax_nope', labels: {}, value: 1 }]);
    expect(seg.unknown).toEqual(['avax_nope']);
    expect(seg.seriesCount).toBe(0);
  });

  it('default: histogram samples keep their bucket order', () => {
    const seg = new TargetSegment([
      { name: 'avax_rpc_request_duration_seconds_bucket', labels: { target: 't', method: 'm', le: '0.5' }, value: 1 },
      { name: 'avax_rpc_request_duration_seconds_bucket', labels: { target: 't', method: 'm', le: '10' }, value: 2 },
      { name: 'avax_rpc_request_duration_seconds_bucket', labels: { target: 't', method: 'm', le: '+Inf' }, value: 2 },
    ]);
    const chunk = seg.chunks.get('avax_rpc_request_duration_seconds')!;
    expect(chunk.indexOf('le="0.5"')).toBeLessThan(chunk.indexOf('le="10"'));
  });

  it('behavior: a render that keeps only its gzip (the full /metrics, 30 times smaller) still serves the same text to a scrape without gzip', () => {
    const text = Buffer.from('avax_up{target="a"} 1\n'.repeat(1000), 'utf8');
    const gz = gzipSync(text);
    const r = renderedFromGzip(gz, 1000, 0);
    expect(r.gzip()).toBe(gz);
    expect(r.text.equals(text)).toBe(true);
    expect(gunzipSync(r.gzip()).equals(r.text)).toBe(true);
    // Kept as given when the text is kept (probes, small renders), and the gzip made on first use.
    const kept = makeRendered(text, 1000, 0);
    expect(kept.text).toBe(text);
    expect(gunzipSync(kept.gzip()).equals(text)).toBe(true);
  });

  it('behavior: a gzip-only render inflates its text for a scrape without gzip and does not pin it', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const text = Buffer.from('avax_up{target="a"} 1\n'.repeat(1000), 'utf8');
    const r = renderedFromGzip(gzipSync(text), 1000, 0);
    let inflated: Buffer | undefined = r.text;
    expect(inflated.equals(text)).toBe(true);
    expect(r.text).toBe(inflated); // while someone holds it, the same buffer
    const gone = new WeakRef(inflated);
    inflated = undefined;
    // Bounded: a few collections, each after a turn of the event loop.
    for (let i = 0; i < 5 && gone.deref() !== undefined; i++) {
      await new Promise((res) => setImmediate(res));
      gc();
    }
    expect(gone.deref()).toBeUndefined();
    expect(r.text.equals(text)).toBe(true);
  });

  it('default: gzipParts is the gzip of the parts joined, over many blocks (the full text is never built whole)', async () => {
    // 3,000 parts of 1,000 bytes: three blocks of a megabyte and a rest.
    const parts = Array.from({ length: 3000 }, (_, i) => Buffer.from(`avax_up{target="t${String(i).padStart(5, '0')}"} 1\n`.padEnd(1000, '#'), 'utf8'));
    const gz = await gzipParts(parts, 6);
    expect(gunzipSync(gz).equals(Buffer.concat(parts))).toBe(true);
    expect(gunzipSync(await gzipParts([], 6)).length).toBe(0);
  });

  it('default: parts() is what assembleBytes() copies, in the same order', () => {
    const e = new Exposition();
    e.setTarget('a', new TargetSegment([{ name: 'avax_up', labels: { target: 'a' }, value: 1 }, { name: 'avax_peers', labels: { target: 'a' }, value: 3 }]));
    const { parts, length, seriesCount } = e.parts();
    expect(Buffer.concat(parts, length).equals(e.assembleBytes().bytes)).toBe(true);
    expect(seriesCount).toBe(2);
  });

  it('default: descriptor names are unique and follow the naming rules', () => {
    const names = DESCRIPTORS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const d of DESCRIPTORS) {
      expect(d.name).toMatch(/^avax_[a-z0-9_]+$/);
      if (d.type === 'counter') expect(d.name).toMatch(/_total$/);
      else expect(d.name).not.toMatch(/_total$/);
    }
  });
});
