import type { Plugin } from 'graphql-yoga';
import { documentProblem } from '../../contract/documentLimits';
import { isTooDeepJsonValue, JSON_NESTING_RULE } from '../../contract/jsonLimits';
import { TEXT_RULE, unstorableTextPath } from '../../contract/storableText';
import type { CoreContext } from './context';
import { graphqlError } from './errorMasking';

/**
 * What every GraphQL endpoint of the core refuses before parsing the document: a document nested
 * too deep (it would overflow the parser's stack) or with a string PostgreSQL cannot store, and
 * variables nested too deep (graphql coerces them recursively) or holding such a string. The gateway refuses the same at the edge; this holds for any
 * caller of the core (docs/api-conventions.md, "Input limits").
 */
export function refuseUnsafeRequests(): Plugin<CoreContext> {
  return {
    onParams({ params }) {
      const problem = typeof params.query === 'string' ? documentProblem(params.query) : undefined;
      if (problem) throw graphqlError('invalid_request', problem, { param: 'query' });
      if (isTooDeepJsonValue(params.variables)) throw graphqlError('invalid_request', `variables ${JSON_NESTING_RULE}.`, { param: 'variables' });
      if (isTooDeepJsonValue(params.extensions)) throw graphqlError('invalid_request', `extensions ${JSON_NESTING_RULE}.`, { param: 'extensions' });
      const variable = unstorableTextPath(params.variables);
      if (variable !== undefined) throw graphqlError('invalid_request', `${variable || 'variables'} ${TEXT_RULE}.`, { param: variable || 'variables' });
    },
  };
}
