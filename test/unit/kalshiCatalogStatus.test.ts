import { catalogStatusOf } from '../../core/venues/kalshi/catalogSource';

describe("Kalshi's market status in the lifecycle's terms", () => {
  it('open while active, determined once the result is known, settled once paid, closed otherwise', () => {
    const statuses = ['initialized', 'inactive', 'active', 'closed', 'determined', 'settled', 'finalized', undefined];
    expect(statuses.map((status) => [status, catalogStatusOf(status)])).toEqual([
      ['initialized', 'closed'],
      ['inactive', 'closed'],
      ['active', 'open'],
      ['closed', 'closed'],
      ['determined', 'determined'],
      ['settled', 'settled'],
      ['finalized', 'settled'],
      [undefined, 'closed'],
    ]);
  });
});
