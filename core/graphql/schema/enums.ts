import { builder } from '../builder';
import { COMPLEX_ORDER_STATUSES, ORDER_STATUSES } from '../../domain/orderLifecycle';

// Lower-case values: the REST API spells them this way, and GraphQL allows it.
export const EnvironmentEnum = builder.enumType('Environment', { values: ['test', 'live'] as const });
export const SubaccountStatusEnum = builder.enumType('SubaccountStatus', { values: ['active', 'deleted'] as const });
export const ExchangeEnum = builder.enumType('Exchange', { values: ['kalshi', 'polymarket'] as const });
export const MarketStatusEnum = builder.enumType('MarketStatus', { values: ['open', 'closed', 'settled'] as const });
export const OrderSideEnum = builder.enumType('OrderSide', { values: ['yes', 'no'] as const });
export const OrderActionEnum = builder.enumType('OrderAction', { values: ['buy', 'sell'] as const });
export const OrderTypeEnum = builder.enumType('OrderType', { values: ['limit', 'market'] as const });
export const TimeInForceEnum = builder.enumType('TimeInForce', { values: ['gtc', 'ioc', 'fok'] as const });
export const OrderStatusEnum = builder.enumType('OrderStatus', { values: ORDER_STATUSES });
export const ComplexOrderStatusEnum = builder.enumType('ComplexOrderStatus', { values: COMPLEX_ORDER_STATUSES });
