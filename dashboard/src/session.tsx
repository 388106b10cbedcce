import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiRequestError, api, setCsrfToken, setEnvironment, setUnauthorizedHandler } from './api';
import type { Environment, Session } from './types';

type Status = 'loading' | 'signed_out' | 'signed_in';

interface SessionContextValue {
  status: Status;
  session: Session | null;
  environment: Environment;
  readOnly: boolean;
  /** Why the user is on the sign-in screen when it is not their own doing (an expired session). */
  notice: string | null;
  signIn: (email: string, password: string) => Promise<void>;
  /** Ends this session (signed out here whatever the answer), or with `everywhere` every session of the user (rejects, signed in still, when that failed). */
  signOut: (options?: { everywhere?: boolean }) => Promise<void>;
  changeEnvironment: (environment: Environment) => void;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>('loading');
  const [session, setSession] = useState<Session | null>(null);
  const [environment, setEnvironmentState] = useState<Environment>('test');
  const [notice, setNotice] = useState<string | null>(null);

  const enter = useCallback((value: Session) => {
    setCsrfToken(value.csrf_token);
    setSession(value);
    setNotice(null);
    setStatus('signed_in');
  }, []);

  const leave = useCallback((why: string | null) => {
    setCsrfToken(null);
    setEnvironment('test');
    setEnvironmentState('test');
    setSession(null);
    setNotice(why);
    setStatus('signed_out');
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => leave('Your session has ended. Sign in again.'));
    return () => setUnauthorizedHandler(null);
  }, [leave]);

  useEffect(() => {
    let active = true;
    api
      .get<Session>('/v1/session')
      .then((value) => active && enter(value))
      .catch((error: unknown) => {
        if (!active) return;
        leave(error instanceof ApiRequestError && error.status === 401 ? null : 'The dashboard could not reach the server.');
      });
    return () => {
      active = false;
    };
  }, [enter, leave]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      enter(await api.post<Session>('/v1/session', { email, password }));
    },
    [enter],
  );

  const signOut = useCallback(async (options: { everywhere?: boolean } = {}) => {
    if (options.everywhere) {
      // Only once the server has ended them all: on an error the user stays, and is told.
      await api.delete('/v1/sessions');
      leave(null);
      return;
    }
    try {
      await api.delete('/v1/session');
    } finally {
      leave(null);
    }
  }, [leave]);

  const changeEnvironment = useCallback((value: Environment) => {
    setEnvironment(value);
    setEnvironmentState(value);
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      status,
      session,
      environment,
      readOnly: session?.user.access === 'read_only',
      notice,
      signIn,
      signOut,
      changeEnvironment,
    }),
    [status, session, environment, notice, signIn, signOut, changeEnvironment],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
