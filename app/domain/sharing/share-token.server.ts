/**
 * Share link tokens: 32 random bytes (256 bits) in base64url, shown once in
 * the link; only their SHA-256 is stored, so a copy of the database opens nothing.
 */
import { createHash, randomBytes } from 'node:crypto'

const TOKEN_BYTES = 32
/** 32 bytes are 43 base64url characters (no padding). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export function newShareToken() {
  const token = randomBytes(TOKEN_BYTES).toString('base64url')
  return { token, tokenHash: hashShareToken(token) }
}

export function hashShareToken(token: string) {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** A token of the shape we hand out (anything else is unknown without a lookup). */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value)
}
