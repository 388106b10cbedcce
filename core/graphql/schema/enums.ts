import { CANDLE_INTERVAL_NAMES } from '../../../contract/inputBounds';
import { MARKET_SORTS } from '../../domain/marketSearch';
import { KALSHI_ENVIRONMENTS } from '../../domain/credentialShapes';
import { EXECUTION_STRATEGIES } from '../../domain/planning';
import { VENUE_NAMES, venueColumn, type VenueColumn, type VenueName, EXCHANGE_NAMES, venuesOf } from '../../venues/venueModules';
import { builder } from '../builder';
import { COMPLEX_ORDER_STATUSES, ORDER_STATUSES, WORKING_STATUSES } from '../../domain/orderLifecycle';
import { MARKET_STATUSES } from '../../domain/marketLifecycle';
import { MARKET_RESULTS } from '../../domain/settlement';

// Lower-case values: the REST API spells them this way, and GraphQL allows it.
export const EnvironmentEnum = builder.enumType('Environment', { values: ['test', 'live'] as const });
export const SubaccountStatusEnum = builder.enumType('SubaccountStatus', { values: ['active', 'deleted'] as const });
export const ExchangeEnum = builder.enumType('Exchange', { values: EXCHANGE_NAMES });
export const VenueEnvironmentEnum = builder.enumType('VenueEnvironment', {
  description: 'Where a venue credential was issued and trades: Kalshi `demo` (the real exchange with play money) or `production`.',
  values: KALSHI_ENVIRONMENTS,
});
export const MarketStatusEnum = builder.enumType('MarketStatus', { values: MARKET_STATUSES });
export const MarketSortEnum = builder.enumType('MarketSort', { values: MARKET_SORTS, description: 'volume: most contracts traded first.' });
export const CandleIntervalEnum = builder.enumType('CandleInterval', {
  values: Object.values(CANDLE_INTERVAL_NAMES),
  description: 'A candle period: minute, hour, UTC day (1m, 1h, 1d in REST).',
});
export const MarketResultEnum = builder.enumType('MarketResult', { values: MARKET_RESULTS });
export const OrderSideEnum = builder.enumType('OrderSide', { values: ['yes', 'no'] as const });
export const OrderActionEnum = builder.enumType('OrderAction', { values: ['buy', 'sell'] as const });
export const OrderTypeEnum = builder.enumType('OrderType', { values: ['limit', 'market'] as const });
export const TimeInForceEnum = builder.enumType('TimeInForce', { values: ['gtc', 'ioc', 'fok', 'gtd'] as const });
export const OrderStatusEnum = builder.enumType('OrderStatus', { values: ORDER_STATUSES });
export const OrderStatusFilterEnum = builder.enumType('OrderStatusFilter', {
  description: `An order status, or working (${WORKING_STATUSES.join(', ')}).`,
  values: [...ORDER_STATUSES, 'working'] as const,
});
export const FillStatusEnum = builder.enumType('FillStatus', {
  description: 'counted: the fill counts in positions and P&L; reversed: the venue reported its trade failed, and it no longer counts (kept for the record).',
  values: ['counted', 'reversed'] as const,
});
export const ExecutionStrategyEnum = builder.enumType('ExecutionStrategy', { values: EXECUTION_STRATEGIES });
/**
 * A venue. GraphQL names cannot hold a hyphen: the names are the database's spelling (sim_kalshi),
 * and resolvers receive the API's (sim-kalshi), which the gateway's REST routes also accept.
 */
export const VenueEnum = builder.enumType('Venue', {
  description: `A venue: ${venuesOf('test').map(venueColumn).join(', ')} (test), ${venuesOf('live').map(venueColumn).join(', ')} (live). Fields of type String spell them ${venuesOf('test')[0]}, as the REST API does.`,
  values: Object.fromEntries(VENUE_NAMES.map((venue) => [venueColumn(venue), { value: venue }])) as Record<VenueColumn, { value: VenueName }>,
});
export const ComplexOrderStatusEnum = builder.enumType('ComplexOrderStatus', { values: COMPLEX_ORDER_STATUSES });
