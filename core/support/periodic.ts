/**
 * Runs `round` every `intervalMs` (measured from the end of one round to the start of the next, so
 * rounds never overlap) until stopped. A round that fails is reported to `onError` and the next one
 * runs. The timer does not keep the process alive; `stop()` waits for the round in progress.
 * `nudge()` runs a round now rather than at the interval (after the round in progress, if any: one
 * more round covers every nudge made meanwhile).
 */
export function runPeriodically(intervalMs: number, round: () => Promise<unknown>, onError: (error: unknown) => void): { stop(): Promise<void>; nudge(): void } {
  let stopped = false;
  let inRound = false;
  let nudged = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    inRound = true;
    nudged = false;
    running = round()
      .then(() => undefined, onError)
      .finally(() => {
        inRound = false;
        if (!stopped) schedule(nudged ? 0 : intervalMs);
      });
  };
  schedule(intervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    nudge() {
      if (stopped) return;
      if (inRound) {
        nudged = true;
        return;
      }
      clearTimeout(timer);
      schedule(0);
    },
  };
}
