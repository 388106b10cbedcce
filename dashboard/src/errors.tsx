import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ApiRequestError, isAbort } from './api';

/** What the error banner shows: the gateway's message, the parameter it names, the request id. */
export interface ShownError {
  message: string;
  param?: string;
  requestId?: string;
}

interface ErrorContextValue {
  error: ShownError | null;
  /** Shows an error in the banner; aborted requests and 401s (the app returns to sign-in) are not shown. */
  report: (error: unknown) => void;
  clear: () => void;
}

/** A mistake caught before sending (a field the API would refuse), shown like the API's own errors. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

const ErrorContext = createContext<ErrorContextValue | null>(null);

export function toShownError(error: unknown): ShownError | null {
  if (isAbort(error)) return null;
  if (error instanceof ApiRequestError) {
    if (error.status === 401) return null;
    return { message: error.message, param: error.param, requestId: error.requestId };
  }
  if (error instanceof InputError) return { message: error.message, param: error.param };
  if (error instanceof Error) return { message: error.message || 'Something went wrong.' };
  return { message: String(error) };
}

export function ErrorProvider({ children }: { children: ReactNode }) {
  const [error, setError] = useState<ShownError | null>(null);
  const report = useCallback((thrown: unknown) => {
    const shown = toShownError(thrown);
    if (shown) setError(shown);
  }, []);
  const clear = useCallback(() => setError(null), []);
  const value = useMemo(() => ({ error, report, clear }), [error, report, clear]);
  return <ErrorContext.Provider value={value}>{children}</ErrorContext.Provider>;
}

export function useErrors(): ErrorContextValue {
  const value = useContext(ErrorContext);
  if (!value) throw new Error('useErrors outside ErrorProvider');
  return value;
}
