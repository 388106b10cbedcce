/** Test and live data are separate: every credential, row and request belongs to one environment. */
export type Environment = 'test' | 'live';

/** The header dashboard credentials choose their environment with. */
export const ENVIRONMENT_HEADER = 'X-Environment';

/** The environment an `X-Environment` header names: test when absent or empty, null when it names neither. */
export function environmentFromHeader(value: string | null | undefined): Environment | null {
  const text = value || 'test';
  return text === 'test' || text === 'live' ? text : null;
}
