import { z } from 'zod';
import { normalizeEmail } from '../../contract/emails';
import type { Route } from './route';
import { SIGNED_OUT } from './route';

const tag = 'Dashboard session';
const password = z.string().min(1).max(1024);

/** The dashboard's sign-in, session check and sign-out (docs/dashboard.md). */
export const SESSION_ROUTES: Route[] = [
  {
    method: 'POST', path: '/v1/session', operation: 'SignIn', tag, summary: 'Sign in to the dashboard',
    description: 'Sets the `mk_session` cookie (HttpOnly, SameSite=Strict, Secure over TLS). A wrong password and an unknown email get the same 401. Rate limited per client address and per email (SIGN_IN_ATTEMPTS_PER_MINUTE).',
    auth: 'none', signInLimits: ['address', 'email'], sessionCookie: 'set', nullIsUnauthorized: 'The email or password is incorrect.',
    body: z.strictObject({
      // Blank is refused here: the per-email limit keys on the normalized email, which must not be empty.
      email: z.string().min(1).max(254).refine((value) => normalizeEmail(value) !== '', 'must not be blank'),
      password,
    }),
    errors: ['invalid_request', 'invalid_json', 'unsupported_media_type', 'payload_too_large'],
  },
  {
    method: 'GET', path: '/v1/session', operation: 'GetSession', tag, summary: 'The cookie\u2019s session',
    auth: 'none', sessionToken: true, nullIsUnauthorized: SIGNED_OUT, errors: [],
  },
  {
    method: 'DELETE', path: '/v1/session', operation: 'SignOut', tag, summary: 'Sign out',
    description: 'Needs X-CSRF-Token. Ends the session in the database (every gateway refuses the cookie at once) and clears the cookie.',
    auth: 'session', sessionToken: true, sessionCookie: 'clear', answerAs: { constants: { signed_out: true } }, errors: ['forbidden'],
  },
  {
    method: 'DELETE', path: '/v1/sessions', operation: 'SignOutEverywhere', tag, summary: 'Sign out everywhere',
    description: 'Needs X-CSRF-Token. Ends every session of the signed-in user, this one included, and clears the cookie.',
    auth: 'session', sessionToken: true, sessionCookie: 'clear', answerAs: { constants: { signed_out: true }, field: 'sessions_ended' }, errors: ['forbidden'],
  },
  {
    method: 'PUT', path: '/v1/session/password', operation: 'ChangePassword', tag, summary: 'Change the password',
    description: 'Needs X-CSRF-Token and the current password (a wrong one: 403 with param current_password). The new one: 12 to 256 characters, not one character repeated, not the current one. Every other session of the user ends; this one goes on. Rate limited like sign-in, per client address and per user.',
    auth: 'session', sessionToken: true, signInLimits: ['address', 'user'], answerAs: { constants: { password_changed: true }, field: 'other_sessions_ended' },
    body: z.strictObject({ current_password: password, new_password: password }),
    errors: ['invalid_request', 'invalid_json', 'unsupported_media_type', 'payload_too_large', 'forbidden'],
  },
  ];
