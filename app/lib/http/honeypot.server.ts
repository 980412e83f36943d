/** A hidden field bots fill in and people don't, on the public forms (remix-utils). */
import { getEnv } from '#app/lib/config/env.server.ts'
import { Honeypot, SpamError } from 'remix-utils/honeypot/server'

let honeypot: Honeypot | undefined
export function getHoneypot() {
  honeypot ??= new Honeypot({
    nameFieldName: 'kestrel_website',
    validFromFieldName: 'kestrel_from',
    encryptionSeed: getEnv().SESSION_SECRET,
  })
  return honeypot
}

/** Throws a 400 when the form was filled in by a bot. */
export function checkHoneypot(formData: FormData) {
  try {
    getHoneypot().check(formData)
  } catch (error) {
    if (error instanceof SpamError) throw new Response('Form not submitted properly', { status: 400 })
    throw error
  }
}
