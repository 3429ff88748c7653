// A target that never answered has no last success, even for a collector whose run in that cycle had
// nothing to ask (platform-validators without the node's ID makes no request and reports no error):
// the cycle without an answer takes such a "success" back (target-runner.ts, dropNodeData).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { startExporter } from '../../src/main.js';
import { memoryLogger } from '../helpers/log.js';
import { freePort } from '../helpers/proc.js';

describe('a target that never answered', () => {
  it('error: every collector failing, none with a last-success timestamp', async () => {
    const port = await freePort(); // nothing listens on it
    const { config } = loadConfig({ argv: ['--node.url', `http://127.0.0.1:${port}`, '--node.name', 'gone', '--node.timeout', '1s'], env: {} });
    const exp = await startExporter({ config, logger: memoryLogger('silent').logger, listen: false, schedule: false });
    try {
      await exp.collectOnce();
      const text = exp.current().text.toString('utf8');
      expect(text).toContain('avax_up{target="gone"} 0');
      expect(text).toMatch(/^avax_collector_success\{target="gone",collector="platform-validators"\} 0$/m);
      expect(text).not.toMatch(/^avax_collector_last_success_timestamp_seconds\{target="gone"/m);
    } finally {
      await exp.stop();
    }
  });
});
