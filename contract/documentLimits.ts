import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { isStorableText, TEXT_RULE } from './storableText';

/**
 * Limits a GraphQL document must meet before it is parsed. graphql-js parses nested selections,
 * arguments and values recursively: a document 3,000 levels deep overflows the stack, so nesting is
 * counted first with graphql's own lexer (iterative; it knows strings, block strings and
 * comments), and a document deeper than MAX_DOCUMENT_NESTING is refused without being parsed. The
 * same pass refuses a string literal PostgreSQL cannot store (core/domain/text.ts). The analysts'
 * own depth, breadth and complexity limits (core/graphql/builder.ts) apply after parsing, to what
 * the document selects.
 */
export const MAX_DOCUMENT_NESTING = 64;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

/** Why the document is refused before parsing, or undefined when it may be parsed. */
export function documentProblem(document: string): string | undefined {
  const lexer = new Lexer(new Source(document));
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        depth += 1;
        if (depth > MAX_DOCUMENT_NESTING) {
          return `The document nests braces, parentheses and brackets more than ${MAX_DOCUMENT_NESTING} levels deep.`;
        }
      } else if (CLOSING.has(token.kind)) {
        depth -= 1;
      } else if ((token.kind === TokenKind.STRING || token.kind === TokenKind.BLOCK_STRING) && !isStorableText(token.value)) {
        return `A string in the document ${TEXT_RULE}.`;
      }
    }
  } catch (error) {
    // A syntax error: the parser reports it, at a point no deeper than what was counted so far.
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
  return undefined;
}
