// Webhook receiver standing in for a real notification channel: collects what Alertmanager POSTs.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One alert of an Alertmanager webhook body (version 4). */
export interface WebhookAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  fingerprint?: string;
}

export interface WebhookBody {
  version: string;
  status: 'firing' | 'resolved';
  receiver: string;
  groupKey: string;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  alerts: WebhookAlert[];
}

export interface Received {
  at: number;
  body: WebhookBody;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Every alert of every notification received at or after `sinceMs`, in arrival order. */
  alerts(sinceMs?: number): (WebhookAlert & { receivedAt: number })[];
  close(): Promise<void>;
}

export async function startWebhook(): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        received.push({ at: Date.now(), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookBody });
        res.writeHead(200).end('ok');
      } catch {
        res.writeHead(400).end('bad json');
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    alerts: (sinceMs = 0) => received.filter((r) => r.at >= sinceMs).flatMap((r) => r.body.alerts.map((a) => ({ ...a, receivedAt: r.at }))),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
