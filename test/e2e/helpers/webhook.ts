// Webhook receiver standing in for a real notification channel: collects what Alertmanager POSTs.
import { startServer } from '../../helpers/http-server.js';

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
  const server = await startServer((_req, res, body) => {
    try {
      received.push({ at: Date.now(), body: JSON.parse(body) as WebhookBody });
      res.writeHead(200).end('ok');
    } catch {
      res.writeHead(400).end('bad json');
    }
  });
  return {
    url: `${server.url}/hook`,
    received,
    alerts: (sinceMs = 0) => received.filter((r) => r.at >= sinceMs).flatMap((r) => r.body.alerts.map((a) => ({ ...a, receivedAt: r.at }))),
    close: () => server.close(),
  };
}
