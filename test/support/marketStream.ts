import { ServerSentEventsClient } from './serverSentEvents';

/** One message of GET /v1/markets/stream: its type, market, seq and the rest of its JSON. */
export interface MarketMessage {
  type: 'snapshot' | 'delta' | 'trade' | 'ticker' | 'status';
  market_id: string;
  seq: number;
  [field: string]: any;
  /** When this client read it (performance.now()). */
  receivedAt: number;
}

/** A client of GET /v1/markets/stream over real HTTP: keeps every message as it arrives. */
export class MarketStreamClient extends ServerSentEventsClient {
  readonly messages: MarketMessage[] = [];
  error?: { code: string; message: string; param?: string };

  static async open(base: string, key: string, query: string): Promise<MarketStreamClient> {
    const controller = new AbortController();
    const response = await fetch(`${base}/v1/markets/stream?${query}`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` }, signal: controller.signal });
    const opened = new MarketStreamClient(response.status, response.headers, controller);
    if (response.status !== 200) {
      opened.error = ((await response.json()) as { error: { code: string; message: string; param?: string } }).error;
      opened.closed = true;
      return opened;
    }
    void opened.read(response.body!, {
      event: (event) => {
        const message = JSON.parse(event.data) as MarketMessage;
        if (event.event !== message.type) throw new Error(`event line ${event.event} differs from the message's type ${message.type}`);
        opened.messages.push({ ...message, receivedAt: performance.now() });
      },
    });
    return opened;
  }

  protected received() {
    return `${this.messages.length} messages: ${this.messages.map((m) => `${m.type}#${m.seq}`).join(', ')}`;
  }

  /** Waits for a message this predicate takes (after the first `from` messages), and answers it. */
  async next(predicate: (message: MarketMessage) => boolean, options: { from?: number; timeoutMs?: number; what?: string } = {}): Promise<MarketMessage> {
    const from = options.from ?? 0;
    const found = () => this.messages.slice(from).find(predicate);
    await this.until(() => found() !== undefined, options.timeoutMs ?? 10_000, options.what ?? 'the message');
    return found()!;
  }
}
