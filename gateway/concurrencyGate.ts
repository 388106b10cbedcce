/**
 * How many requests of one key (a credential) may run at once in this process: a request enters
 * if fewer than `max` of its key are running, and leaves when it is answered, however it ends. No
 * queue: past the limit a request is refused at once, so a credential that floods the gateway waits
 * on its own answers and takes no more of the event loop than `max` requests' worth.
 */
export class ConcurrencyGate {
  private readonly running = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A function that leaves (call it once the request is answered), or undefined when the key is at its limit. */
  enter(key: string): (() => void) | undefined {
    const now = this.running.get(key) ?? 0;
    if (now >= this.max) return undefined;
    this.running.set(key, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const after = (this.running.get(key) ?? 1) - 1;
      if (after === 0) this.running.delete(key);
      else this.running.set(key, after);
    };
  }
}
