import { createHash, randomBytes } from 'node:crypto'

/** A URL-safe random token (256 bits). */
export function generateToken() {
  return randomBytes(32).toString('base64url')
}

/** Tokens are stored only as their SHA-256, so a database leak reveals no usable token. */
export function hashToken(token: string) {
  return createHash('sha256').update(token).digest('hex')
}
