import type { ObjectRef } from '@pothos/core';
import type { Page } from '../../domain/pagination';
import { builder } from '../builder';

/** `{ data, hasMore, nextCursor }`: the one list shape of the API. */
export function pageOf<T>(name: string, item: ObjectRef<any, T>) {
  return builder.objectRef<Page<T>>(`${name}Page`).implement({
    fields: (t) => ({
      // The field that returns the page already multiplied by its limit (queryCost.ts): not counted twice.
      data: t.field({ type: [item], complexity: { field: 1, multiplier: 1 }, resolve: (page) => page.data }),
      hasMore: t.exposeBoolean('hasMore'),
      nextCursor: t.exposeString('nextCursor', { nullable: true }),
    }),
  });
}

export const pageArgs = builder.args((t) => ({
  limit: t.int({ required: false, description: 'From 1 to 200; 50 when left out.' }),
  cursor: t.string({ required: false, description: 'The nextCursor of the previous page.' }),
}));
