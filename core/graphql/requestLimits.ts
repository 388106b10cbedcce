import type { Plugin } from 'graphql-yoga';
import { documentProblem } from '../../contract/documentLimits';
import { JSON_NESTING_RULE, jsonValueProblem } from '../../contract/jsonLimits';
import { TEXT_RULE } from '../../contract/storableText';
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
      // One walk each: nesting first, then text PostgreSQL cannot store.
      for (const [name, value] of [['variables', params.variables], ['extensions', params.extensions]] as const) {
        const problem = jsonValueProblem(value);
        if (problem?.kind === 'too_deep') throw graphqlError('invalid_request', `${name} ${JSON_NESTING_RULE}.`, { param: name });
        if (problem?.kind === 'unstorable_text') {
          const param = problem.path ? (name === 'variables' ? problem.path : `${name}.${problem.path}`) : name;
          throw graphqlError('invalid_request', `${param} ${TEXT_RULE}.`, { param });
        }
      }
    },
  };
}
