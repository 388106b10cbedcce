import type { CoreErrorCode } from '../../../contract/errors';
import type { SqlClient } from '../../db/sql';
import { keyReference, requestHashOf, type KeyAnswer, type KeyRecords, type KeyRequest, type StoredAnswer } from './keyRecords';

/**
 * An Idempotency-Key claim that the order path sends itself, in the same write as its
 * transaction's first statements (one round trip instead of two). The claim is the same statement,
 * committed on its own before the transaction begins, so it means exactly what a claim made before
 * the request ran means.
 */
export interface ClaimInWrite {
  /** True once this request holds the key (claimed, or taken over from a dead claim). */
  readonly held: boolean;
  /** Sends the claim on `client`, behind nothing and ahead of what follows; resolves true when this request now holds the key. */
  send(client: SqlClient): Promise<boolean>;
  /**
   * The key was found claimed: resolves once this request took a dead claim over and holds the key;
   * otherwise throws KeyAnswered (the request then answers what the key's record says: a replay or
   * a refusal, which RequestClaim.finish gives).
   */
  settle(): Promise<void>;
}

/**
 * What a use case receives of a request's Idempotency-Key: who holds it, the reference a retry
 * derives again, the claim it sends in its own write (when it is given one), and a way to say that
 * its answer must not be replayed.
 */
export interface IdempotencyPort {
  readonly apiKeyId: string;
  readonly key: string;
  /** keyReference of the key: a placed order's client order id, a complex order's idempotency ref. */
  readonly reference: string;
  /** Set when the request's own first write sends the claim (the order path, on a pipelining connection). */
  readonly inWrite?: ClaimInWrite;
  /**
   * The answer is not stored, so a retry with the same key runs again instead of replaying it: an
   * order whose fate at the venue is not known yet, an answer holding a secret.
   */
  leaveAnswerUnstored(): void;
}

/** Thrown by ClaimInWrite.settle to end the request: the key is another request's (RequestClaim.finish gives the answer). */
export class KeyAnswered extends Error {
  constructor() {
    super('answered by the Idempotency-Key');
  }
}

/**
 * Answers that are not stored: validation failures (`invalid_request`), failures whose outcome is
 * not known (`internal_error`, `venue_unavailable`) and a venue's rate limit (`rate_limited`: nothing
 * was sent, the retry after Retry-After must be carried out). A retry of those runs again; operations
 * that place orders reconcile through the client order id they derive from the key, so that a retry
 * never places a second order.
 */
const NOT_STORED = new Set<unknown>(['invalid_request', 'internal_error', 'venue_unavailable', 'rate_limited'] satisfies CoreErrorCode[]);

/** One request's Idempotency-Key, from before it runs to its answer. */
export class RequestClaim implements IdempotencyPort {
  readonly reference: string;
  inWrite?: ClaimInWrite;
  private readonly request: KeyRequest;
  private unstored = false;
  /** What the request answers instead of its own result: the key turned out to be another request's. */
  private answered?: KeyAnswer;

  constructor(
    private readonly records: KeyRecords,
    key: { apiKeyId: string; key: string; operation: string; variables: unknown },
  ) {
    this.request = { apiKeyId: key.apiKeyId, key: key.key, operation: key.operation, requestHash: requestHashOf(key.operation, key.variables) };
    this.reference = keyReference(key);
  }

  get apiKeyId() {
    return this.request.apiKeyId;
  }
  get key() {
    return this.request.key;
  }

  /**
   * Before the request runs: claims the key now (undefined: this request holds it; else what it
   * answers instead), or, when the use case sends the claim in its own first write (`inWrite`) and
   * the connection allows it, leaves the claim to it. Without pipelining (the embedded PGlite) the
   * claim would save no round trip, and a request whose key is taken would run its reads for
   * nothing: it claims first.
   */
  async begin(options: { inWrite: boolean }): Promise<KeyAnswer | undefined> {
    if (options.inWrite && this.records.claimsInWrite) {
      this.inWrite = this.claimInWrite();
      return undefined;
    }
    const outcome = await this.records.claim(this.request);
    return outcome.kind === 'claimed' ? undefined : outcome;
  }

  leaveAnswerUnstored(): void {
    this.unstored = true;
  }

  /**
   * Set once the use case's in-write claim found the key another request's (it then threw
   * KeyAnswered): what the request answers instead, its own result being only that error.
   */
  get answeredInstead(): KeyAnswer | undefined {
    return this.answered;
  }

  /**
   * After the request ran (and its in-write claim did not find the key taken: answeredInstead), with
   * its answer: what it answers instead when a claim made now finds the key another request's; otherwise the answer is stored for replay, or the key released (NOT_STORED,
   * or left unstored by the use case). A request that failed before its in-write claim was sent
   * wrote nothing: it is claimed now, and answered exactly as if it had claimed first.
   */
  async finish(answer: { code: unknown; stored: StoredAnswer }): Promise<KeyAnswer | undefined> {
    if (this.inWrite && !this.inWrite.held) {
      const outcome = await this.records.claim(this.request);
      if (outcome.kind !== 'claimed') return outcome;
    }
    if (NOT_STORED.has(answer.code) || this.unstored) await this.records.release(this.request);
    else await this.records.complete(this.request, answer.stored);
    return undefined;
  }

  private claimInWrite(): ClaimInWrite {
    let held = false;
    return {
      get held() {
        return held;
      },
      send: async (client) => {
        held = await this.records.send(client, this.request);
        return held;
      },
      settle: async () => {
        const outcome = await this.records.settleTaken(this.request);
        if (outcome.kind !== 'claimed') {
          this.answered = outcome;
          throw new KeyAnswered();
        }
        held = true;
      },
    };
  }
}
