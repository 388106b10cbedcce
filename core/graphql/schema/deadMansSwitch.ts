import { MAX_SWITCH_TIMEOUT_SECONDS, MIN_SWITCH_TIMEOUT_SECONDS } from '../../../contract/inputBounds';
import { armDeadMansSwitch, deadMansSwitchStatus, disarmDeadMansSwitch, heartbeat, type DeadMansSwitchStatus } from '../../services/risk/deadMansSwitch';
import { builder } from '../builder';
import { requestScope, tradingScope } from '../context';

const DeadMansSwitchStateEnum = builder.enumType('DeadMansSwitchState', {
  description: 'armed: lapses at expiresAt unless kept alive; fired: lapsed, its orders canceled, new orders refused until re-armed or disarmed; disarmed.',
  values: ['armed', 'fired', 'disarmed'] as const,
});

export const DeadMansSwitchType = builder.prismaObject('DeadMansSwitch', {
  description: "A dead-man's switch of the workspace (in the key's environment) or of one subaccount (docs/dead-mans-switch.md).",
  fields: (t) => ({
    id: t.exposeID('id'),
    subaccountId: t.exposeID('subaccountId', { nullable: true, description: 'Null: the whole workspace, in this environment.' }),
    state: t.expose('state', { type: DeadMansSwitchStateEnum }),
    timeoutSeconds: t.int({ resolve: (row) => row.timeoutMs / 1000 }),
    armedAt: t.expose('armedAt', { type: 'DateTime' }),
    lastHeartbeatAt: t.expose('lastHeartbeatAt', { type: 'DateTime', description: 'The last keep-alive recorded (a heartbeat, an arm, or a request of the workspace).' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'Armed: when it lapses unless kept alive. Otherwise when it lapsed or would have.' }),
    firedAt: t.expose('firedAt', { type: 'DateTime', nullable: true, description: 'When it last fired.' }),
    firings: t.exposeInt('firings', { description: 'How many times it has fired, in all.' }),
    cancelingOrders: t.boolean({ description: 'The cancellation of its last firing is under way.', resolve: (row) => row.cancelLeaseUntil !== null }),
    cancelCompletedAt: t.expose('cancelCompletedAt', { type: 'DateTime', nullable: true, description: 'When the cancellation of its last firing completed.' }),
    ordersCanceled: t.exposeInt('ordersCanceled', { description: 'Orders its last firing canceled.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const DeadMansSwitchStatusType = builder.objectRef<DeadMansSwitchStatus>('DeadMansSwitchStatus').implement({
  description: "The dead-man's switches of the workspace in the caller's environment.",
  fields: (t) => ({
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'The earliest expiry of an armed switch; null when none is armed.' }),
    switches: t.field({ type: [DeadMansSwitchType], resolve: (status) => status.switches }),
  }),
});

const ArmDeadMansSwitchInput = builder.inputType('ArmDeadMansSwitchInput', {
  fields: (t) => ({
    subaccountId: t.id({ required: false, description: 'The subaccount it covers; the whole workspace when left out.' }),
    timeoutSeconds: t.int({ required: true, description: `Whole seconds, ${MIN_SWITCH_TIMEOUT_SECONDS} to ${MAX_SWITCH_TIMEOUT_SECONDS}.` }),
  }),
});

builder.queryField('deadMansSwitches', (t) =>
  t.field({
    type: DeadMansSwitchStatusType,
    resolve: (_root, _args, ctx) => deadMansSwitchStatus(ctx.db, requestScope(ctx)),
  }),
);

builder.mutationFields((t) => ({
  armDeadMansSwitch: t.field({
    type: DeadMansSwitchType,
    description: 'Arms or re-arms the switch: it lapses timeoutSeconds from now unless kept alive. Re-arming a fired switch accepts new orders again.',
    args: { input: t.arg({ type: ArmDeadMansSwitchInput, required: true }) },
    resolve: (_root, args, ctx) =>
      armDeadMansSwitch(ctx.db, tradingScope(ctx), { subaccountId: args.input.subaccountId == null ? null : String(args.input.subaccountId), timeoutSeconds: args.input.timeoutSeconds }, ctx.keepAlive),
  }),
  disarmDeadMansSwitch: t.field({
    type: DeadMansSwitchType,
    description: 'Disarms the switch; a fired one then accepts new orders again.',
    args: { subaccountId: t.arg.id({ required: false }) },
    resolve: (_root, args, ctx) => disarmDeadMansSwitch(ctx.db, requestScope(ctx), args.subaccountId == null ? null : String(args.subaccountId)),
  }),
  heartbeat: t.field({
    type: DeadMansSwitchStatusType,
    description: 'Keeps every armed switch of the workspace (in this environment) alive from now.',
    resolve: (_root, _args, ctx) => heartbeat(ctx.db, tradingScope(ctx), ctx.keepAlive),
  }),
}));
