import { z } from 'zod';
import { MAX_SWITCH_TIMEOUT_SECONDS, MIN_SWITCH_TIMEOUT_SECONDS } from '../../contract/inputBounds';
import { id } from './inputs';
import type { Route } from './route';

const tag = "Dead-man's switch";
const subaccount = id('sa').optional().describe('The subaccount the switch covers; the whole workspace (in the key\u2019s environment) when left out.');

/** The dead-man's switch (docs/dead-mans-switch.md): arm, read, keep alive, disarm. */
export const DEAD_MANS_SWITCH_ROUTES: Route[] = [
  {
    method: 'PUT', path: '/v1/dead_mans_switch', operation: 'ArmDeadMansSwitch', tag, summary: "Arm or re-arm the dead-man's switch",
    description: `Covers the key's workspace in the key's environment (a live key's switch covers live orders, a test key's test orders), or one subaccount. It lapses timeout_seconds after the last keep-alive: POST /v1/heartbeat, or any request authenticated by an API key of the workspace and environment (recorded at most a quarter of the timeout late). When it lapses, every open order of its scope is canceled at its venue and new orders are refused with 409 dead_mans_switch_fired until it is re-armed or disarmed. See docs/dead-mans-switch.md.`,
    auth: 'api_key', bodyVariable: 'input',
    body: z.strictObject({
      subaccount_id: subaccount,
      timeout_seconds: z.number().int().min(MIN_SWITCH_TIMEOUT_SECONDS).max(MAX_SWITCH_TIMEOUT_SECONDS).describe(`Whole seconds, ${MIN_SWITCH_TIMEOUT_SECONDS} to ${MAX_SWITCH_TIMEOUT_SECONDS}.`),
    }),
    errors: ['invalid_request', 'invalid_json', 'payload_too_large', 'unsupported_media_type', 'not_found'],
  },
  {
    method: 'GET', path: '/v1/dead_mans_switch', operation: 'GetDeadMansSwitches', tag, summary: "The dead-man's switches of the workspace",
    description: 'Every switch of the workspace in this environment (the workspace\u2019s first, then its subaccounts\u2019): state, timeout, expiry, last heartbeat, last firing and the orders it canceled; expires_at is the earliest expiry of an armed one.',
    auth: 'api_key', session: true, errors: [],
  },
  {
    method: 'DELETE', path: '/v1/dead_mans_switch', operation: 'DisarmDeadMansSwitch', tag, summary: "Disarm the dead-man's switch",
    description: 'Disarms the workspace\u2019s switch, or with subaccount_id the subaccount\u2019s; a fired switch then accepts new orders again. 404 when there is no such switch.',
    auth: 'api_key', session: true, query: z.strictObject({ subaccount_id: subaccount }), errors: ['invalid_request', 'not_found'],
  },
  {
    method: 'POST', path: '/v1/heartbeat', operation: 'Heartbeat', tag, summary: "Keep the dead-man's switches alive",
    description: 'Every armed switch of the workspace in this environment now lapses its timeout from now; answers the switches and the earliest expiry. A switch that already lapsed is not revived: re-arm it.',
    auth: 'api_key', errors: [],
  },
  ];
