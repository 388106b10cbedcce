import type { Plugin } from 'graphql-yoga';
import { documentProblem } from '../../contract/documentLimits';
import { TEXT_RULE, unstorableTextPath } from '../../contract/storableText';
import type { CoreContext } from './context';
import { graphqlError } from './errorMasking';

/**
 * What every GraphQL endpoint of the core refuses before parsing the document: a document nested
 * too deep (it would overflow the parser's stack) or with a string PostgreSQL cannot store, and
 * variables holding such a string. The gateway refuses the same at the edge; this holds for any
 * caller of the core (docs/api-conventions.md, "Input limits").
 */
export function refuseUnsafeRequests(): Plugin<CoreContext> {
  return {
    onParams({ params }) {
      const problem = typeof params.query === 'string' ? documentProblem(params.query) : undefined;
      if (problem) throw graphqlError('invalid_request', problem, { param: 'query' });
      const variable = unstorableTextPath(params.variables);
      if (variable !== undefined) throw graphqlError('invalid_request', `${variable || 'variables'} ${TEXT_RULE}.`, { param: variable || 'variables' });
    },
  };
}
