/** Test data: users of each role and their sessions, straight through the services. */
import { randomBytes } from 'node:crypto'
import { hashPassword } from '#app/domain/auth/password.server.ts'
import { createSession } from '#app/domain/auth/session.server.ts'
import { insertUser } from '#app/domain/users/users.server.ts'
import type { Role } from '#db/schema.ts'

export const TEST_PASSWORD = 'correct-horse-42'

// Hashed once for the whole run by tests/setup/vitest-global-setup.ts when vitest runs it.
let cachedHash: string | undefined = process.env.KESTREL_TEST_PASSWORD_HASH

export async function createTestUser(
  overrides: { role?: Role; email?: string; password?: string; isActive?: boolean; firstName?: string } = {},
) {
  const password = overrides.password ?? TEST_PASSWORD
  const passwordHash =
    password === TEST_PASSWORD
      ? (cachedHash ??= await hashPassword(TEST_PASSWORD))
      : await hashPassword(password)
  const role = overrides.role ?? 'client'
  return insertUser({
    email: overrides.email ?? `${role}-${randomBytes(4).toString('hex')}@example.test`,
    passwordHash,
    firstName: overrides.firstName ?? role[0]!.toUpperCase() + role.slice(1),
    lastName: 'Tester',
    role,
    phone: '821234567',
    country: 'South Africa',
    isActive: overrides.isActive ?? true,
  })
}

/** A user with a live session, and the headers that authenticate as them. */
export async function signedInUser(role: Role = 'client') {
  const user = await createTestUser({ role })
  const { token } = await createSession(user.id)
  return { user, token, headers: { 'x-session-id': token } }
}
