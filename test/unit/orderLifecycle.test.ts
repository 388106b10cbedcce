import Decimal from 'decimal.js';
import {
  canMove,
  FINAL_STATUSES,
  isFinal,
  isResting,
  isUnconfirmed,
  isWorking,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  settleDecision,
  statusAfterReport,
  statusAfterReversal,
  type OrderStatus,
  type SettlingChild,
  type VenueReportedStatus,
} from '../../core/domain/orderLifecycle';

const D = (value: Decimal.Value) => new Decimal(value);

describe('order statuses', () => {
  it('sort every status into working or final, never both', () => {
    expect(ORDER_STATUSES.filter(isWorking)).toEqual(['pending', 'open', 'partially_filled', 'unknown']);
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['filled', 'canceled', 'rejected', 'expired']);
    for (const status of ORDER_STATUSES) expect(isWorking(status)).toBe(!isFinal(status));
  });

  it('call resting the orders on the venue\'s book, and unconfirmed those the venue has not answered for', () => {
    expect(ORDER_STATUSES.filter(isResting)).toEqual(['open', 'partially_filled']);
    expect(ORDER_STATUSES.filter(isUnconfirmed)).toEqual(['pending', 'unknown']);
    for (const status of ORDER_STATUSES) {
      if (isResting(status) || isUnconfirmed(status)) expect(isWorking(status)).toBe(true);
    }
  });
});

describe('order transitions', () => {
  const moves: [OrderStatus, OrderStatus][] = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]));
  const allowed = new Set([
    'pending>open', 'pending>partially_filled', 'pending>filled', 'pending>canceled', 'pending>rejected', 'pending>unknown', 'pending>expired',
    'unknown>open', 'unknown>partially_filled', 'unknown>filled', 'unknown>canceled', 'unknown>rejected', 'unknown>expired',
    'open>partially_filled', 'open>filled', 'open>canceled', 'open>expired',
    'partially_filled>filled', 'partially_filled>canceled', 'partially_filled>expired',
    'canceled>filled', 'rejected>filled', 'rejected>canceled', 'expired>filled', 'expired>canceled',
  ]);

  it.each(moves)('%s -> %s', (from, to) => {
    expect(canMove(from, to)).toBe(from === to || allowed.has(`${from}>${to}`));
  });

  it('never lead back to a working status once the order filled, rested or was refused', () => {
    expect(ORDER_TRANSITIONS.filled).toEqual([]);
    for (const status of FINAL_STATUSES) expect(ORDER_TRANSITIONS[status].filter(isWorking)).toEqual([]);
    expect(ORDER_TRANSITIONS.open.filter(isUnconfirmed)).toEqual([]);
    expect(ORDER_TRANSITIONS.partially_filled).not.toContain('open');
  });
});

describe('statusAfterReport', () => {
  const after = (current: OrderStatus, filled: Decimal.Value, venue?: VenueReportedStatus, quantity: Decimal.Value = 10) =>
    statusAfterReport(current, { filled: D(filled), quantity }, venue);

  it('is filled once the recorded fills reach the quantity, whatever the venue or our record says', () => {
    expect(after('open', 10)).toBe('filled');
    expect(after('canceled', 10, 'canceled')).toBe('filled');
    expect(after('rejected', '10.5', 'open')).toBe('filled');
  });

  it('follows the venue: canceled, then filled', () => {
    expect(after('open', 4, 'canceled')).toBe('canceled');
    expect(after('pending', 0, 'canceled')).toBe('canceled');
    expect(after('unknown', 4, 'filled')).toBe('filled');
  });

  it('is expired when the venue ended a gtd order whose time had come, and stays so', () => {
    const expiredReport = (current: OrderStatus, filled: Decimal.Value, venue?: VenueReportedStatus) =>
      statusAfterReport(current, { filled: D(filled), quantity: 10 }, venue, true);
    expect(expiredReport('open', 0, 'canceled')).toBe('expired');
    expect(expiredReport('partially_filled', 4, 'canceled')).toBe('expired');
    expect(expiredReport('open', 10, 'canceled')).toBe('filled');
    expect(expiredReport('open', 0, 'open')).toBe('open');
    expect(after('expired', 4, 'canceled')).toBe('expired');
    expect(after('open', 4, 'canceled')).toBe('canceled');
  });

  it('keeps a final status of ours against a report that the order still rests or a partial fill', () => {
    expect(after('canceled', 4, 'open')).toBe('canceled');
    expect(after('expired', 4)).toBe('expired');
    expect(after('rejected', 0, 'open')).toBe('rejected');
  });

  it('is partially filled once anything filled, open when the venue answered, else unchanged', () => {
    expect(after('pending', 4, 'open')).toBe('partially_filled');
    expect(after('open', 4)).toBe('partially_filled');
    expect(after('unknown', 0, 'open')).toBe('open');
    expect(after('pending', 0)).toBe('pending');
    expect(after('unknown', 0)).toBe('unknown');
  });

  it('keeps an order the venue reported filled as filled while its fills arrive', () => {
    const reported = statusAfterReport('open', { filled: new Decimal(0), quantity: '10' }, 'filled');
    expect(reported).toBe('filled');
    expect(statusAfterReport(reported, { filled: new Decimal(4), quantity: '10' }, undefined)).toBe('filled');
    expect(statusAfterReport(reported, { filled: new Decimal(4), quantity: '10' }, 'open')).toBe('filled');
  });

  it('only ever moves an order along the transitions, for every status, fill total and venue report', () => {
    // Exhaustive over a quantity of 10 (fills 0..12 after the report, four venue reports). `filled`
    // is the order's total after the report: it never shrinks, so an order already partially
    // filled has at least 1; every other status can stand at any total.
    const reports: (VenueReportedStatus | undefined)[] = ['open', 'filled', 'canceled', undefined];
    const moves: string[] = [];
    for (const current of ORDER_STATUSES) {
      for (let filled = current === 'partially_filled' ? 1 : 0; filled <= 12; filled += 1) {
        for (const reported of reports) {
          const next = after(current, filled, reported);
          if (!canMove(current, next)) moves.push(`${current} -> ${next} (filled ${filled}, venue ${reported ?? 'no state'})`);
        }
      }
    }
    expect(moves).toEqual([]);
  });
});

describe('statusAfterReversal', () => {
  it('cancels a filled order (the venue is done with it), keeps a partly filled one resting, and leaves the rest', () => {
    expect(statusAfterReversal('filled', D(0))).toBe('canceled');
    expect(statusAfterReversal('filled', D(4))).toBe('canceled');
    expect(statusAfterReversal('partially_filled', D(4))).toBe('partially_filled');
    expect(statusAfterReversal('partially_filled', D(0))).toBe('open');
    for (const status of ['pending', 'open', 'unknown', 'canceled', 'rejected', 'expired'] as const) expect(statusAfterReversal(status, D(0))).toBe(status);
  });

  it('never makes a final order working again', () => {
    for (const status of FINAL_STATUSES) expect(isFinal(statusAfterReversal(status, D(0)))).toBe(true);
  });
});

describe('settleDecision', () => {
  const sent = (status: OrderStatus, filledQuantity: Decimal.Value = 0): SettlingChild => ({ status: 'sent', order: { status, filledQuantity: D(filledQuantity) } });
  const refused: SettlingChild = { status: 'rejected', order: null };
  const canceledUnsent: SettlingChild = { status: 'canceled', order: null };

  it('waits while a child is not yet at the venue or its order still works', () => {
    expect(settleDecision([sent('filled', 5), { status: 'scheduled', order: null }])).toBeNull();
    expect(settleDecision([sent('filled', 5), { status: 'sending', order: null }])).toBeNull();
    expect(settleDecision([sent('filled', 5), { status: 'sent', order: null }])).toBeNull();
    for (const working of ['pending', 'open', 'partially_filled', 'unknown'] as const) {
      expect(settleDecision([refused, sent(working)])).toBeNull();
    }
  });

  it('completes when every child is final and something traded', () => {
    expect(settleDecision([sent('filled', 5), sent('canceled', 2)])).toBe('completed');
    expect(settleDecision([sent('canceled', '0.5'), refused])).toBe('completed');
    expect(settleDecision([sent('expired', 1), canceledUnsent])).toBe('completed');
  });

  it('completes when nothing traded but not every child was refused (canceled, expired)', () => {
    expect(settleDecision([sent('canceled'), refused])).toBe('completed');
    expect(settleDecision([canceledUnsent])).toBe('completed');
    expect(settleDecision([sent('expired')])).toBe('completed');
  });

  it('fails when every child was refused, by the risk checks or by the venue, and nothing traded', () => {
    expect(settleDecision([refused, refused])).toBe('failed');
    expect(settleDecision([refused, sent('rejected')])).toBe('failed');
    expect(settleDecision([{ status: 'rejected', order: { status: 'rejected', filledQuantity: D(0) } }])).toBe('failed');
  });
});
