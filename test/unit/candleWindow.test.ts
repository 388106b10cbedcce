import { candleWindow } from '../../core/domain/candles';
import { DomainError } from '../../core/domain/errors';

const at = (iso: string) => new Date(iso);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? [error.code, error.param] : error;
  }
  return 'accepted';
};

describe('candleWindow', () => {
  it('covers whole periods, from the one holding `from` to the one holding `to`', () => {
    expect(candleWindow('1m', at('2026-11-29T10:00:30Z'), at('2026-11-29T10:05:00Z'), at('2026-11-29T12:00:00Z'))).toEqual({
      interval: '1m', from: at('2026-11-29T10:00:00Z'), to: at('2026-11-29T10:06:00Z'),
    });
    expect(candleWindow('1d', at('2026-11-27T23:59:59.999Z'), at('2026-11-29T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toEqual({
      interval: '1d', from: at('2026-11-27T00:00:00Z'), to: at('2026-11-30T00:00:00Z'),
    });
  });

  it('reads 100 periods up to now when neither end is given', () => {
    expect(candleWindow('1h', undefined, undefined, at('2026-11-29T10:20:00Z'))).toEqual({
      interval: '1h', from: at('2026-11-25T07:00:00Z'), to: at('2026-11-29T11:00:00Z'),
    });
  });

  it('refuses an unknown interval, an empty or reversed window and more than 1,000 periods', () => {
    const now = at('2026-11-29T10:20:00Z');
    expect(refusal(() => candleWindow('5m', undefined, undefined, now))).toEqual(['invalid_request', 'interval']);
    expect(refusal(() => candleWindow('1m', at('2026-11-29T10:10:00Z'), at('2026-11-29T10:00:00Z'), now))).toEqual(['invalid_request', 'from']);
    expect(refusal(() => candleWindow('1m', at('2026-11-29T00:00:00Z'), at('2026-11-29T16:39:59Z'), now))).toBe('accepted');
    expect(refusal(() => candleWindow('1m', at('2026-11-29T00:00:00Z'), at('2026-11-29T16:40:00Z'), now))).toEqual(['invalid_request', 'from']);
    expect(refusal(() => candleWindow('toString', undefined, undefined, now))).toEqual(['invalid_request', 'interval']);
  });
});
