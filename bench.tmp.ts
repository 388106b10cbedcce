import { planExecution } from './core/domain/planning';
import { createSimVenues } from './core/venues/sim';
import { kalshiMarketRules, polymarketMarketRules } from './core/domain/venueRules';
(async () => {
  const venues = createSimVenues([
    { venue: 'sim-kalshi', venueMarketId: 'K', tickSize: '0.01', minSize: '1', fairValue: '0.50' },
    { venue: 'sim-polymarket', venueMarketId: 'P', tickSize: '0.001', minSize: '5', fairValue: '0.50', takerFeeRateBps: 100 },
  ], { seed: 3, marketMaker: { levels: 40 } });
  const snaps = [
    { venue: 'sim-kalshi' as const, book: await venues.get('sim-kalshi')!.orderBook('K', 100), rules: kalshiMarketRules() },
    { venue: 'sim-polymarket' as const, book: await venues.get('sim-polymarket')!.orderBook('P', 100), rules: polymarketMarketRules({ tickSize: '0.001', takerFeeRateBps: 100 }) },
    { venue: 'kalshi' as const, book: await venues.get('sim-kalshi')!.orderBook('K', 100), rules: kalshiMarketRules() },
    { venue: 'polymarket' as const, book: await venues.get('sim-polymarket')!.orderBook('P', 100), rules: polymarketMarketRules({ tickSize: '0.001', takerFeeRateBps: 100 }) },
  ];
  const all = ['sim-kalshi', 'sim-polymarket', 'kalshi', 'polymarket'] as const;
  for (let i = 0; i < 2; i++) {
  let t = Date.now();
  const p = planExecution({ side: 'yes', action: 'buy', quantity: '20000.37', strategy: 'sweep', venues: [...all] }, snaps);
  console.log('sweep 4 venues', Date.now() - t, 'ms', p.recommended?.impact.allInNotional, p.recommended?.children.length);
  t = Date.now();
  const q = planExecution({ side: 'yes', action: 'buy', quantity: '20000', strategy: 'twap', durationSeconds: 3600, slices: 200, venues: [...all] }, snaps);
  console.log('twap 200 slices 4 venues', Date.now() - t, 'ms', q.recommended?.impact.allInNotional, q.recommended?.children.length);
  t = Date.now();
  const r = planExecution({ side: 'yes', action: 'buy', quantity: '300', strategy: 'sweep', venues: ['sim-kalshi','sim-polymarket'] }, snaps);
  console.log('sweep 2 venues small', Date.now() - t, 'ms');
  }
})();
