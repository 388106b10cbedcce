import type { EventObjectType } from '../../domain/events';
import { DomainError } from '../../domain/errors';
import { followEvents } from '../../services/events/eventFeed';
import { listEvents, type LoggedEvent, type RiskLimitBreach } from '../../services/events/eventLog';
import { builder } from '../builder';
import { checkFilterIds } from '../filterIds';
import { renewForNextEvent, requestScope } from '../context';
import { refuseCostlySubscription } from '../queryCost';
import { ChildOrderType, ComplexOrderType } from './complexOrder';
import { ExchangeCredentialType } from './credential';
import { DeadMansSwitchType } from './deadMansSwitch';
import { FillType } from './executionRecords';
import { OrderType } from './order';
import { pageOf } from './page';
import { RiskLimitsType } from './riskLimits';
import { WorkspaceType } from './workspace';
import { SettlementType } from './settlement';
import { MarketType } from './market';

const RiskLimitBreachType = builder.objectRef<Omit<RiskLimitBreach, 'createdAt'> & { createdAt: Date }>('RiskLimitBreach').implement({
  description: 'An order refused by a risk limit before any venue saw it: what was asked, and which limit refused it.',
  fields: (t) => ({
    subaccountId: t.exposeID('subaccountId'),
    marketId: t.exposeID('marketId'),
    limit: t.exposeString('limit', { description: 'The limit that refused the order (max_order_notional, kill_switch, ...), as risk_limit_exceeded errors name it.' }),
    message: t.exposeString('message'),
    side: t.exposeString('side'),
    action: t.exposeString('action'),
    type: t.exposeString('type'),
    price: t.expose('price', { type: 'Decimal', nullable: true }),
    quantity: t.expose('quantity', { type: 'Decimal' }),
    clientOrderId: t.exposeString('clientOrderId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/**
 * An event's object, one field per kind, exactly one of them set (the one `object` names): a union
 * cannot carry them, since the resources' fields of one name differ in type (status is an
 * OrderStatus on an order, a FillStatus on a fill) and GraphQL refuses such a selection across
 * members. REST shows the set one as `data` (contract/eventShape.ts).
 */
const objectField = <T extends EventObjectType>(kind: T) => (event: LoggedEvent) => (event.objectType === kind ? (event.data as never) : null);

export const EventType = builder.objectRef<LoggedEvent>('Event').implement({
  description: 'One entry of the event log: a change a client cares about, in the order the changes were committed. Its object is the field `object` names, as the change left it: the same object the resource’s own reads answer (an order’s queuePosition is null: it describes the book now).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'evt_ and the event’s place in the log: ids sort in log order. Last-Event-ID and after take it.' }),
    type: t.exposeString('type', { description: 'e.g. order.filled, fill.created (docs/events.md lists every type).' }),
    object: t.exposeString('objectType', { description: 'What the event is about, and the field that holds it: order, fill, settlement, market, complex_order, child_order, dead_mans_switch, credential, workspace, risk_limits or risk_limit_breach.' }),
    subaccountId: t.exposeID('subaccountId', { nullable: true, description: 'Null for a workspace-wide change (the kill switch, a workspace dead-man’s switch).' }),
    previousStatus: t.exposeString('previousStatus', { nullable: true, description: 'For a change of status: the status before it (unknown -> filled reads previousStatus unknown).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the transaction that made the change began.' }),
    order: t.field({ type: OrderType, nullable: true, resolve: objectField('order') }),
    fill: t.field({ type: FillType, nullable: true, resolve: objectField('fill') }),
    settlement: t.field({ type: SettlementType, nullable: true, resolve: objectField('settlement') }),
    market: t.field({ type: MarketType, nullable: true, resolve: objectField('market') }),
    complexOrder: t.field({ type: ComplexOrderType, nullable: true, resolve: objectField('complex_order') }),
    childOrder: t.field({ type: ChildOrderType, nullable: true, resolve: objectField('child_order') }),
    deadMansSwitch: t.field({ type: DeadMansSwitchType, nullable: true, resolve: objectField('dead_mans_switch') }),
    credential: t.field({ type: ExchangeCredentialType, nullable: true, resolve: objectField('credential') }),
    workspace: t.field({ type: WorkspaceType, nullable: true, resolve: objectField('workspace') }),
    riskLimits: t.field({ type: RiskLimitsType, nullable: true, resolve: objectField('risk_limits') }),
    riskLimitBreach: t.field({ type: RiskLimitBreachType, nullable: true, resolve: objectField('risk_limit_breach') }),
  }),
});

const EventPage = pageOf('Event', EventType);

builder.queryField('events', (t) =>
  t.field({
    type: EventPage,
    description: 'The event log of the scope: newest first (cursor), or oldest first after an event (after).',
    args: {
      types: t.arg.stringList({ required: false, description: 'Event types, exact or <object>.* (order.*).' }),
      subaccountId: t.arg.string({ required: false }),
      since: t.arg({ type: 'DateTime', required: false, description: 'Inclusive.' }),
      until: t.arg({ type: 'DateTime', required: false, description: 'Exclusive.' }),
      after: t.arg.string({ required: false, description: 'An event id: the events after it, oldest first (not with cursor).' }),
      limit: t.arg.int({ required: false, description: 'From 1 to 200; 50 when left out.' }),
      cursor: t.arg.string({ required: false, description: 'The nextCursor of the previous page (newest first).' }),
    },
    resolve: async (_root, args, ctx) => {
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      ctx.readsEvents = true;
      return listEvents(ctx.db, scope, args);
    },
  }),
);

builder.subscriptionField('events', (t) =>
  t.field({
    type: EventType,
    description:
      'The event log of the scope as it grows: every event after `after` (or from now on), oldest first, each once, within seconds of its change. Analysts’ endpoint only, over Server-Sent Events (docs/analyst-graphql.md).',
    args: {
      types: t.arg.stringList({ required: false, description: 'Event types, exact or <object>.* (order.*).' }),
      subaccountId: t.arg.string({ required: false }),
      after: t.arg.string({ required: false, description: 'An event id: start just after it (resuming); from now on when left out.' }),
    },
    subscribe: async (_root, args, ctx, info) => {
      const { eventNotices } = ctx;
      if (ctx.principal.kind !== 'analyst' || !eventNotices) throw new DomainError('forbidden', 'Subscriptions are served by the analysts’ GraphQL only.');
      refuseCostlySubscription(ctx, info);
      const scope = requestScope(ctx);
      await checkFilterIds(ctx.db, scope, args, { live: false });
      ctx.readsEvents = true;
      return followEvents(ctx.db, scope, eventNotices, args, { pollMs: ctx.config.EVENT_STREAM_POLL_MS, logger: ctx.logger, beforeEach: () => renewForNextEvent(ctx) });
    },
    resolve: (event) => event,
  }),
);
