// C-Chain transfers on a real local network, so that its C-Chain makes blocks as a live network does
// (an idle local network makes none, and under SAE (ACP-194) only executed blocks move the heights and gas
// counters the exporter reads). Sent with viem from the genesis-funded "ewoq" account, one at a time.
import { createWalletClient, defineChain, http, parseEther, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { C_CHAIN_ID, EWOQ_PRIVATE_KEY } from './genesis.js';

/** Where the transfers go (an address nobody holds the key of: burnt test AVAX). */
export const TRAFFIC_TO = '0x000000000000000000000000000000000000dEaD';

export interface Traffic {
  /** Transfers accepted by the node so far (their hashes). */
  readonly sent: readonly Hash[];
  /** Errors of transfers that failed (kept for the failure message; the traffic goes on). */
  readonly errors: readonly string[];
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

function clientFor(nodeUrl: string) {
  const chain = defineChain({
    id: C_CHAIN_ID,
    name: 'realnet C-Chain',
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [`${nodeUrl}/ext/bc/C/rpc`] } },
  });
  return createWalletClient({ account: privateKeyToAccount(EWOQ_PRIVATE_KEY), chain, transport: http(undefined, { timeout: 10_000, retryCount: 0 }) });
}

/** One transfer of 0.001 AVAX through `nodeUrl`; resolves with its hash once the node took it. */
export async function sendTransfer(nodeUrl: string): Promise<Hash> {
  return clientFor(nodeUrl).sendTransaction({ to: TRAFFIC_TO, value: parseEther('0.001') });
}

/**
 * A transfer every `everyMs` through the given nodes in turn, until stop(). Bounded: at most `max` transfers.
 */
export function startTraffic(nodeUrls: () => readonly string[], everyMs = 2_000, max = 5_000): Traffic {
  const sent: Hash[] = [];
  const errors: string[] = [];
  let paused = false;
  let stopped = false;
  let turn = 0;
  const loop = (async () => {
    while (!stopped && sent.length + errors.length < max) {
      if (!paused) {
        const urls = nodeUrls();
        const url = urls[turn++ % Math.max(1, urls.length)];
        if (url) {
          try {
            sent.push(await sendTransfer(url));
          } catch (e) {
            errors.push(String(e).split('\n')[0]!.slice(0, 300));
          }
        }
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    sent,
    errors,
    pause: () => (paused = true),
    resume: () => (paused = false),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
