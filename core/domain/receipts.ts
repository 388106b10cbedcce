import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/**
 * A receipt's content hash: SHA-256 (hex) of its content serialized with the JSON
 * Canonicalization Scheme (RFC 8785: keys sorted, no whitespace). A client recomputes it from the
 * `content` it received with any JCS implementation and compares it with `content_hash`.
 */
export function receiptHash(content: unknown): string {
  const canonical = canonicalize(content);
  if (canonical === undefined) throw new Error('receipt content is not JSON');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
