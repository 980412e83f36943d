/**
 * Password hashing with node:crypto scrypt (memory-hard, no native add-on).
 * Format: scrypt$N$r$p$saltB64$hashB64 so parameters can be raised later.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const N = 2 ** 15
const r = 8
const p = 1
const KEY_LENGTH = 64
const maxmem = 64 * 1024 * 1024

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem })
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [, nText, rText, pText, saltB64, hashB64] = parts
  const expected = Buffer.from(hashB64, 'base64')
  const key = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(nText),
    r: Number(rText),
    p: Number(pText),
    maxmem,
  })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/**
 * A hash of a random password, for comparing against when the e-mail is unknown,
 * so a failed login takes the same time whether or not the account exists.
 */
let dummyHash: Promise<string> | undefined
export function getDummyHash() {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  return dummyHash
}
