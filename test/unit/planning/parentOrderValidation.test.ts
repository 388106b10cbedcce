import { DomainError } from '../../../core/domain/errors';
import { planExecution, type ParentOrder } from '../../../core/domain/planning';
import { KALSHI, parent, POLYMARKET, snapshot } from './planningFixtures';

const books = [snapshot('sim-kalshi', KALSHI, [['0.38', '10']], [['0.40', '10']]), snapshot('sim-polymarket', POLYMARKET, [], [['0.41', '10']])];

function refusal(order: Partial<ParentOrder>, markets = books): { code: string; param?: string } {
  try {
    planExecution(parent(order), markets);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parent order validation', () => {
  it.each<[string, Partial<ParentOrder>, string]>([
    ['a quantity that is not a decimal string', { quantity: '1e3' }, 'quantity'],
    ['a zero quantity', { quantity: '0' }, 'quantity'],
    ['a quantity finer than any venue step', { quantity: '1.234' }, 'quantity'],
    ['a limit at 1', { limitPrice: '1' }, 'limitPrice'],
    ['a limit finer than $0.0001', { limitPrice: '0.43215' }, 'limitPrice'],
    ['an unknown side', { side: 'maybe' as never }, 'side'],
    ['an unknown strategy', { strategy: 'iceberg' as never }, 'strategy'],
    ['a twap without a duration', { strategy: 'twap' }, 'durationSeconds'],
    ['a twap with zero slices', { strategy: 'twap', durationSeconds: 60, slices: 0 }, 'slices'],
    ['no venues', { venues: [] }, 'venues'],
    // Which names are venues is the registry's (core/venues/venueModules.ts): the schema's Venue enum refuses any other.
    ['a venue that is not a name', { venues: [42 as never] }, 'venues'],
  ])('refuses %s as invalid_request naming the field', (_, order, param) => {
    expect(refusal(order)).toEqual({ code: 'invalid_request', param });
  });

  it('refuses a whole-contract-only quantity step when only Kalshi is eligible', () => {
    expect(refusal({ quantity: '2.5', venues: ['sim-kalshi'] })).toEqual({ code: 'invalid_request', param: 'quantity' });
    expect(() => planExecution(parent({ quantity: '2.5' }), books)).not.toThrow();
  });

  it('answers market_not_tradable when no allowed venue lists the market', () => {
    expect(refusal({ venues: ['kalshi'] })).toEqual({ code: 'market_not_tradable', param: undefined });
  });
});
