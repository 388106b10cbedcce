/** The dead-man's switch's pure rules: the timeout's bounds and the keep-alive's cadence (core/domain/deadMansSwitch.ts). */
import { keepAliveDue, keepAliveEveryMs, timeoutMsOf } from '../../core/domain/deadMansSwitch';
import { DomainError } from '../../core/domain/errors';

it('takes whole seconds from 1 to 3600, and refuses anything else naming the input', () => {
  expect(timeoutMsOf(1)).toBe(1000);
  expect(timeoutMsOf(3600)).toBe(3_600_000);
  for (const bad of [0, -1, 3601, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    let refused: unknown;
    try {
      timeoutMsOf(bad, 'input.timeoutSeconds');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'invalid_request', param: 'input.timeoutSeconds', message: 'timeoutSeconds must be a whole number of seconds from 1 to 3600.' });
  }
});

it('writes a request’s keep-alive at most once per quarter of the shortest timeout', () => {
  expect(keepAliveEveryMs(2000)).toBe(500);
  expect(keepAliveDue(undefined, 0, 2000)).toBe(true);
  expect(keepAliveDue(1000, 1499, 2000)).toBe(false);
  expect(keepAliveDue(1000, 1500, 2000)).toBe(true);
  expect(keepAliveDue(1000, 1249, 1000)).toBe(false);
  expect(keepAliveDue(1000, 1250, 1000)).toBe(true);
});
