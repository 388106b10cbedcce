import { ServerSentEventsClient } from './serverSentEvents';

/** One event as GET /v1/events/stream sends it: its id line and its data (the event's JSON). */
export interface StreamedEvent {
  id: string;
  type: string;
  subaccount_id: string | null;
  created_at: string;
  previous_status: string | null;
  data: Record<string, any>;
  /** When this client read it (Date.now()). */
  receivedAt: number;
}

/**
 * A client of GET /v1/events/stream over real HTTP: reads the Server-Sent Events as they arrive
 * (parsed by eventsource-parser), keeps every event and counts the comment lines.
 */
export class EventStreamClient extends ServerSentEventsClient {
  readonly events: StreamedEvent[] = [];
  comments = 0;
  /** With a status other than 200: the error envelope's error. */
  error?: { code: string; message: string; param?: string };

  /** Opens a stream; resolves once the answer's head arrived (status 200, or an error's envelope as `error`). */
  static async open(
    base: string,
    credential: { key?: string; cookie?: string },
    options: { query?: string; lastEventId?: string; headers?: Record<string, string> } = {},
  ): Promise<EventStreamClient> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
    if (credential.key) headers.authorization = `Bearer ${credential.key}`;
    if (credential.cookie) headers.cookie = credential.cookie;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const controller = new AbortController();
    const response = await fetch(`${base}/v1/events/stream${options.query ? `?${options.query}` : ''}`, { headers, signal: controller.signal });
    const opened = new EventStreamClient(response.status, response.headers, controller);
    if (response.status !== 200) {
      opened.error = ((await response.json()) as { error: { code: string; message: string; param?: string } }).error;
      opened.closed = true;
      return opened;
    }
    void opened.read(response.body!, {
      event: (event) => {
        opened.events.push({ ...(JSON.parse(event.data) as Omit<StreamedEvent, 'receivedAt'>), receivedAt: Date.now() });
        if (event.id !== opened.events[opened.events.length - 1]!.id) throw new Error(`id line ${event.id} differs from the event's id`);
      },
      comment: () => {
        opened.comments += 1;
      },
    });
    return opened;
  }

  protected received() {
    return `${this.events.length} events: ${this.events.map((e) => e.type).join(', ')}`;
  }

  /**
   * Opens a stream again and again (every 100 ms) until one is admitted, as a client whose stream
   * was refused for a limit does once a place is freed; fails after `timeoutMs`.
   */
  static async openOnceAdmitted(base: string, credential: { key?: string; cookie?: string }, timeoutMs = 10_000): Promise<EventStreamClient> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const attempt = await EventStreamClient.open(base, credential);
      if (attempt.status === 200) return attempt;
      if (Date.now() > deadline) throw new Error(`no stream admitted within ${timeoutMs} ms: the last answer was ${attempt.status} ${JSON.stringify(attempt.error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits for an event this predicate takes, and answers it. */
  async next(predicate: (event: StreamedEvent) => boolean, timeoutMs = 5000, what = 'the event'): Promise<StreamedEvent> {
    await this.until(() => this.events.some(predicate), timeoutMs, what);
    return this.events.find(predicate)!;
  }
}
