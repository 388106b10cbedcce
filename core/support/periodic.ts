/**
 * Runs `round` every `intervalMs` (measured from the end of one round to the start of the next, so
 * rounds never overlap) until stopped. A round that fails is reported to `onError` and the next one
 * runs. The timer does not keep the process alive; `stop()` waits for the round in progress.
 */
export function runPeriodically(intervalMs: number, round: () => Promise<unknown>, onError: (error: unknown) => void): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  const tick = () => {
    running = round()
      .then(() => undefined, onError)
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
