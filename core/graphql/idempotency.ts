import { getOperationAST, type ExecutionResult, type GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { KeyAnswer, KeyRecords } from '../services/idempotency/keyRecords';
import { RequestClaim } from '../services/idempotency/requestClaim';
import type { CoreContext } from './context';
import { graphqlError } from './errorMasking';

/**
 * The Idempotency-Key of a request, as a hook: the keys' semantics are the idempotency service's
 * (services/idempotency/). Before the request runs, its claim begins (RequestClaim.begin); a key
 * that is another request's is answered at once, with its replay or a refusal. The resolver's use
 * case receives the claim as `ctx.idempotency`. After the request ran, the claim finishes with the
 * masked answer (stored, or the key released), or gives the answer the request must give instead.
 *
 * A root field whose use case sends the claim in its own first write says so in its extensions
 * (`CLAIMS_IN_WRITE`): the order path, where it saves a round trip.
 */
export const CLAIMS_IN_WRITE = 'idempotencyClaimsInWrite';

export function useIdempotency(records: KeyRecords, maskError: (error: unknown) => Error): Plugin<CoreContext> {
  return {
    async onExecute({ args, setResultAndStopExecution, extendContext }) {
      const context = args.contextValue as CoreContext & { params?: { extensions?: Record<string, unknown> } };
      const key = context.params?.extensions?.idempotencyKey;
      if (typeof key !== 'string' || context.principal.kind !== 'api_key') return;
      const claim = new RequestClaim(records, { apiKeyId: context.principal.keyId, key, operation: args.operationName ?? '', variables: args.variableValues ?? {} });
      const refused = await claim.begin({ inWrite: rootFieldClaimsInWrite(args) });
      if (refused) {
        setResultAndStopExecution(resultOf(refused));
        return;
      }
      extendContext({ idempotency: claim } as Partial<CoreContext>);
      return {
        async onExecuteDone({ result, setResult }) {
          // The key was another request's: its answer replaces the KeyAnswered the use case ended with (never masked, never logged).
          if (claim.answeredInstead) {
            setResult(resultOf(claim.answeredInstead));
            return;
          }
          const single = result as ExecutionResult;
          const errors = (single.errors ?? []).map((e) => maskError(e) as GraphQLError);
          const instead = await claim.finish({
            code: errors[0]?.extensions?.code,
            stored: {
              ...(single.data !== undefined ? { data: single.data } : {}),
              ...(errors.length ? { errors: errors.map((e) => e.toJSON()) } : {}),
            },
          });
          if (instead) setResult(resultOf(instead));
        },
      };
    },
  };
}

/** Whether the operation's (first) root field declares that its use case claims the key in its own write. */
function rootFieldClaimsInWrite(args: { schema: import('graphql').GraphQLSchema; document: import('graphql').DocumentNode; operationName?: string | null }): boolean {
  const operation = getOperationAST(args.document, args.operationName);
  const root = operation && args.schema.getRootType(operation.operation);
  const selection = operation?.selectionSet.selections[0];
  if (!root || selection?.kind !== 'Field') return false;
  return root.getFields()[selection.name.value]?.extensions?.[CLAIMS_IN_WRITE] === true;
}

/** What a request answers instead of running: the stored answer replayed, or a refusal. */
function resultOf(answer: KeyAnswer): ExecutionResult {
  if (answer.kind === 'refused') return { errors: [graphqlError(answer.code, answer.message)] };
  const { stored } = answer;
  return {
    ...(stored.data !== undefined ? { data: stored.data as ExecutionResult['data'] } : {}),
    ...(stored.errors ? { errors: stored.errors.map((e) => createGraphQLError(e.message, { path: e.path, extensions: e.extensions })) } : {}),
    extensions: { idempotentReplayed: true },
  };
}
