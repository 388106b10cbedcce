import { isStorableText } from './storableText';

/**
 * How deep a JSON body or GraphQL `variables` may nest objects and arrays. No input of the API
 * needs more than a few levels; a value nested thousands deep (64 KiB of `[` is 65,536 levels)
 * overflows the stack of whatever walks it recursively (JSON.stringify, graphql's input coercion).
 * It is refused before anything walks it: in the raw text where there is one (the gateway's
 * bodies), by a walk of the parsed value bounded by the limit otherwise (the core's GraphQL
 * variables, in the one walk that also refuses text PostgreSQL cannot store).
 */
export const MAX_JSON_NESTING = 32;

export const JSON_NESTING_RULE = `must not nest objects and arrays more than ${MAX_JSON_NESTING} levels deep`;

/**
 * Where JSON text nests past MAX_JSON_NESTING: the top-level key under which it does (`''` when the
 * text itself is the deep array, or the key is unknown), or undefined when it does not. Counts
 * brackets outside strings, one character at a time (no recursion); text that is not JSON is the
 * parser's to refuse afterwards.
 */
export function tooDeepJsonText(text: string): string | undefined {
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let lastTopString = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) {
        inString = false;
        if (depth === 1) lastTopString = text.slice(stringStart + 1, i);
      }
    } else if (c === 0x22) {
      inString = true;
      stringStart = i;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > MAX_JSON_NESTING) return keyName(lastTopString);
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return undefined;
}

/** A key as JSON wrote it (escapes decoded where they are valid). */
function keyName(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return '';
  }
}

/** What is wrong with a parsed JSON value, if anything: nesting past MAX_JSON_NESTING, or a string PostgreSQL cannot store (its path). */
export type JsonValueProblem = { kind: 'too_deep' } | { kind: 'unstorable_text'; path: string };

/**
 * One walk of a parsed JSON value for both of the core's input rules: nesting past
 * MAX_JSON_NESTING (the walk stops there, so a value nested thousands deep costs 33 levels of
 * recursion, never the stack) and the first string that is not storable text (storableText.ts),
 * named by its path (`input.name`, `venues.0`; `''` for the value itself).
 */
export function jsonValueProblem(value: unknown, path: string[] = []): JsonValueProblem | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : { kind: 'unstorable_text', path: path.join('.') };
  if (value === null || typeof value !== 'object') return undefined;
  if (path.length >= MAX_JSON_NESTING) return { kind: 'too_deep' };
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return { kind: 'unstorable_text', path: [...path, key].join('.') };
    const problem = jsonValueProblem(item, [...path, key]);
    if (problem) return problem;
  }
  return undefined;
}
