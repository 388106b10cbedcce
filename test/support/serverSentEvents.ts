import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * What the suites' Server-Sent Events clients share: reading a response body as it arrives
 * (parsed by eventsource-parser), waiting until what was received satisfies a test, closing.
 */
export abstract class ServerSentEventsClient {
  closed = false;
  private waiters: (() => void)[] = [];

  /** The answer's status and headers, and what aborts its request. */
  constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
  ) {}

  /** What was received so far, for the message of a wait that failed. */
  protected abstract received(): string;

  /** Reads `body` to its end, handing each event and comment on; wakes the waiters after each. */
  protected async read(body: ReadableStream<Uint8Array>, on: { event: (event: EventSourceMessage) => void; comment?: () => void }) {
    const parser = createParser({
      onEvent: (event) => {
        on.event(event);
        this.wake();
      },
      onComment: () => {
        on.comment?.();
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
        throw new Error(`${what} did not arrive within ${timeoutMs} ms (${this.received()}; closed: ${this.closed})`);
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

  close() {
    this.controller.abort();
  }
}
