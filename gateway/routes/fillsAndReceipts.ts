import { z } from 'zod';
import { createdWindow, id, page } from './inputs';
import type { Route } from './route';

/** What executed: execution receipts and fills. */
export const FILL_AND_RECEIPT_ROUTES: Route[] = [
  {
    method: 'GET', path: '/v1/receipts', operation: 'ListReceipts', tag: 'Receipts', summary: 'List execution receipts',
    auth: 'api_key', session: true,
    query: z.strictObject({ subaccount_id: id('sa').optional(), order_id: id('ord').optional(), ...createdWindow, ...page }),
    errors: ['invalid_request'],
  },
  {
    method: 'GET', path: '/v1/fills', operation: 'ListFills', tag: 'Fills', summary: 'List fills', auth: 'api_key', session: true,
    query: z.strictObject({
      subaccount_id: id('sa').optional(), market_id: id('mkt').optional(), order_id: id('ord').optional(),
      ...createdWindow, ...page,
    }),
    errors: ['invalid_request'],
  },
];
