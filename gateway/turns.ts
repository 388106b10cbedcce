/**
 * At most `max` tasks running at once; the others wait their turn, first come first served. A
 * workspace's catch-up reads of the event log take turns this way (eventStreams.ts), so that a
 * reconnect storm of one workspace queues behind itself instead of crowding out the others.
 */
export class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The place passes to the next in line as it is (running stays counted), or is given back.
      // Passed on in a later turn of the event loop, not at once: turns whose work is ready (a
      // page already read) would otherwise run back to back as microtasks, and the other requests'
      // I/O would wait for all of them.
      if (next) setImmediate(next);
      else this.running -= 1;
    }
  }
}
