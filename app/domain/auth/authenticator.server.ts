/**
 * remix-auth with remix-auth-form does the credential check for the login page and
 * the login API alike. It reads `request.clone().formData()`, so callers parse the
 * body from a clone first.
 */
import { isDomainError } from '#app/lib/http/domain-error.ts'
import type { User } from '#db/schema.ts'
import { Authenticator } from 'remix-auth'
import { FormStrategy } from 'remix-auth-form'

import { authError, INVALID_CREDENTIALS, verifyCredentials } from './accounts.server.ts'

const PASSWORD_STRATEGY = 'password'

const authenticator = new Authenticator<User>()

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = form.get('email')
    const password = form.get('password')
    if (typeof email !== 'string' || typeof password !== 'string') {
      throw authError(INVALID_CREDENTIALS, 401)
    }
    return verifyCredentials(email, password)
  }),
  PASSWORD_STRATEGY,
)

/**
 * Runs the password strategy; a DomainError (authError) when the credentials are refused. Anything else (a
 * database failure) is rethrown as itself, so it is not mistaken for a wrong password and the
 * caller can show 'Login failed'.
 */
export async function authenticatePassword(request: Request): Promise<User> {
  try {
    return await authenticator.authenticate(PASSWORD_STRATEGY, request)
  } catch (error) {
    if (isDomainError(error)) throw error
    if (error instanceof Error && isDomainError(error.cause)) throw error.cause
    if (error instanceof Error && error.cause instanceof Error) throw error.cause
    throw error
  }
}

/** The login API takes JSON; the strategy takes a form. This bridges the two. */
export function toFormRequest(request: Request, fields: { email: string; password: string }) {
  return new Request(request.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  })
}
