/**
 * Text the API stores and looks up. PostgreSQL's text cannot hold the NUL character (U+0000) at
 * all: a NUL in a value fails the statement. An unpaired surrogate (half of a UTF-16 pair, which
 * JSON's "\ud800" escapes can produce) is not a character and UTF-8 cannot encode it: it would be
 * stored silently replaced by U+FFFD. Both are refused, never altered.
 */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

export const TEXT_RULE = 'must not contain the NUL character (U+0000) or an unpaired surrogate';

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * The path (`input.name`, `venues.0`) of the first string in `value` that is not storable text, or
 * undefined. Walks plain JSON values (objects, arrays, strings) to at most `maxDepth` levels:
 * deeper values are someone else's to refuse (a schema, a depth limit), never a stack overflow here.
 */
export function unstorableTextPath(value: unknown, path: string[] = [], maxDepth = 32): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path.join('.');
  if (value === null || typeof value !== 'object' || path.length >= maxDepth) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key].join('.');
    const found = unstorableTextPath(item, [...path, key], maxDepth);
    if (found !== undefined) return found;
  }
  return undefined;
}
