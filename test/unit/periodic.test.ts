import { runPeriodically } from '../../core/support/periodic';

/** Resolves once `probe` holds, checking on every turn of the event loop (no guessed clock). */
async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((resolve) => setImmediate(resolve));
}

describe('runPeriodically', () => {
  it('a nudge runs a round now rather than after the interval', async () => {
    let rounds = 0;
    const job = runPeriodically(3_600_000, async () => void (rounds += 1), () => undefined);
    job.nudge();
    await until(() => rounds === 1);
    await job.stop();
    expect(rounds).toBe(1);
  });

  it('nudges made during a round give one more round after it, never two at once', async () => {
    let rounds = 0;
    let running = 0;
    let most = 0;
    let release!: () => void;
    const job = runPeriodically(
      3_600_000,
      async () => {
        rounds += 1;
        running += 1;
        most = Math.max(most, running);
        if (rounds === 1) await new Promise<void>((resolve) => (release = resolve));
        running -= 1;
      },
      () => undefined,
    );
    job.nudge();
    await until(() => rounds === 1);
    job.nudge();
    job.nudge();
    release();
    await until(() => rounds === 2);
    await job.stop();
    expect({ rounds, most }).toEqual({ rounds: 2, most: 1 });
  });

  it('a nudge after stop runs nothing', async () => {
    let rounds = 0;
    const job = runPeriodically(3_600_000, async () => void (rounds += 1), () => undefined);
    await job.stop();
    job.nudge();
    // A round a nudge scheduled would be due at once: a later timer fires after it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rounds).toBe(0);
  });
});
