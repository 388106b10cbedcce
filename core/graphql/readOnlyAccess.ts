import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { CoreContext } from './context';
import { graphqlError } from './errorMasking';

/**
 * A read-only caller's mutation (a read-only dashboard user, or a read-only analyst credential) is
 * refused before anything runs: 403 forbidden. Used by both GraphQL endpoints of the core.
 */
export function refuseMutationsWhenReadOnly(): Plugin<CoreContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const principal = (args.contextValue as CoreContext).principal;
      if (!('access' in principal) || principal.access !== 'read_only') return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName ?? undefined);
      if (operation?.operation === 'query') return;
      setResultAndStopExecution({
        errors: [graphqlError('forbidden', 'This credential is read-only: changes are refused.')],
      });
    },
  };
}
