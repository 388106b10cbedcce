import { createParser } from 'eventsource-parser';

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
export class EventStreamClient {
  readonly events: StreamedEvent[] = [];
  comments = 0;
  closed = false;
  /** With a status other than 200: the error envelope's error. */
  error?: { code: string; message: string; param?: string };
  private waiters: (() => void)[] = [];

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
  ) {}

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
    void opened.read(response.body!);
    return opened;
  }

  private async read(body: ReadableStream<Uint8Array>) {
    const parser = createParser({
      onEvent: (event) => {
        this.events.push({ ...(JSON.parse(event.data) as Omit<StreamedEvent, 'receivedAt'>), receivedAt: Date.now() });
        if (event.id !== this.events[this.events.length - 1]!.id) throw new Error(`id line ${event.id} differs from the event's id`);
        this.wake();
      },
      onComment: () => {
        this.comments += 1;
        this.wake();
      },
    });
    const decoder = new TextDecoder();
    try {
      const reader = body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(decoder.decode(chunk.value, { stream: true }));
    } catch {
      // aborted by close(), or the connection ended
    } finally {
      this.closed = true;
      this.wake();
    }
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }

  /** Waits until `done` holds for what was received (checked on every event, comment and the end), or fails after `timeoutMs`. */
  async until(done: (client: this) => boolean, timeoutMs = 5000, what = 'the expected events'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this)) {
      const left = deadline - Date.now();
      if (left <= 0 || (this.closed && !done(this))) {
        throw new Error(`${what} did not arrive within ${timeoutMs} ms (${this.events.length} events: ${this.events.map((e) => e.type).join(', ')}; closed: ${this.closed})`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for an event this predicate takes, and answers it. */
  async next(predicate: (event: StreamedEvent) => boolean, timeoutMs = 5000, what = 'the event'): Promise<StreamedEvent> {
    await this.until(() => this.events.some(predicate), timeoutMs, what);
    return this.events.find(predicate)!;
  }

  close() {
    this.controller.abort();
  }
}
