import type { LiveState } from '../useLiveEvents';

const LIVE_LABELS: Record<LiveState, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', off: 'Not live' };

/** Whether a view follows a stream: a dot and a word. Test id `testId`, its state in data-state. */
export function LiveMarker({ state, testId }: { state: LiveState; testId: string }) {
  return (
    <p className={`live live-${state}`} data-testid={testId} data-state={state}>
      {LIVE_LABELS[state]}
    </p>
  );
}
