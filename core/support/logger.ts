import pino from 'pino';

/** Paths that may carry secrets; pino replaces them before anything is written. */
const redact = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'privateKey',
  '*.privateKey',
  'private_key',
  '*.private_key',
  'api_secret',
  '*.api_secret',
  'api_passphrase',
  '*.api_passphrase',
  'tokenHash',
  '*.tokenHash',
  'headers.cookie',
  '*.headers.cookie',
  'token',
  '*.token',
  'credentials',
  '*.credentials',
];

export type Logger = pino.Logger;

/** Errors are logged by type, code and message: never a stack trace, a query or a secret. */
const serializeError = (error: unknown) => {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.constructor.name, ...(code !== undefined ? { code } : {}), message: error.message.split('\n')[0].slice(0, 300) };
};

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, redact: { paths: redact, censor: '[redacted]' }, serializers: { err: serializeError } });
}
