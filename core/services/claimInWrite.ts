import type { SqlClient } from '../db/sql';

/**
 * An Idempotency-Key claim that the order path sends itself, in the same write as its
 * transaction's first statements (one round trip instead of two). The claim is the same statement,
 * committed on its own before the transaction begins, so it means exactly what a claim made before
 * execution means (core/graphql/idempotency.ts makes it).
 */
export interface ClaimInWrite {
  /** True once this request holds the key (claimed, or taken over from a dead claim). */
  readonly held: boolean;
  /** Sends the claim on `client`, behind nothing and ahead of what follows; resolves true when this request now holds the key. */
  send(client: SqlClient): Promise<boolean>;
  /**
   * The key was found claimed: throws what the request answers instead (the stored answer's replay,
   * or a refusal), or resolves when this request took a dead claim over and now holds the key.
   */
  settle(): Promise<void>;
}
