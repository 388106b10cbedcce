import { ANALYTICS_ROUTES } from './analytics';
import { COMPLEX_ORDER_ROUTES } from './complexOrders';
import { DEAD_MANS_SWITCH_ROUTES } from './deadMansSwitch';
import { EVENT_ROUTES } from './events';
import { FILL_AND_RECEIPT_ROUTES } from './fillsAndReceipts';
import { MARKET_ROUTES } from './markets';
import { ORDER_ROUTES } from './orders';
import { PORTFOLIO_ROUTES } from './portfolio';
import { RISK_ROUTES } from './risk';
import type { Route } from './route';
import { SESSION_ROUTES } from './session';
import { SETTLEMENT_ROUTES } from './settlements';
import { SUBACCOUNT_ROUTES } from './subaccounts';
import { WEBHOOK_ROUTES } from './webhooks';
import { WORKSPACE_ROUTES } from './workspace';

export type { Route, SignInLimit } from './route';
export { SIGNED_OUT } from './route';

/**
 * The REST API: every resource's routes (one file each in this folder), in the order the OpenAPI
 * document lists them. Adding an endpoint is adding a row to its resource's file and a .graphql
 * document in contract/operations/.
 */
export const ROUTES: Route[] = [
  ...ORDER_ROUTES,
  ...COMPLEX_ORDER_ROUTES,
  ...PORTFOLIO_ROUTES,
  ...FILL_AND_RECEIPT_ROUTES,
  ...SETTLEMENT_ROUTES,
  ...RISK_ROUTES,
  ...DEAD_MANS_SWITCH_ROUTES,
  ...ANALYTICS_ROUTES,
  ...SUBACCOUNT_ROUTES,
  ...EVENT_ROUTES,
  ...WEBHOOK_ROUTES,
  ...MARKET_ROUTES,
  ...WORKSPACE_ROUTES,
  ...SESSION_ROUTES,
];
