/** Emails of dashboard users: one normal form for storing, looking up and rate limiting. */
export const EMAIL_MAX_LENGTH = 254;

/** One "@", something on each side, a dot in the domain, no whitespace: deliberately loose. */
const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@.][^\s@]*\.[^\s@.]+$/u;

/** The email as stored and looked up: NFC, trimmed, lower-cased. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

export function validEmail(normalized: string): boolean {
  return normalized.length <= EMAIL_MAX_LENGTH && EMAIL_SHAPE.test(normalized) && !normalized.includes('..');
}
