/**
 * The welcome message after registration (kept for the dashboard, shown once as a
 * dismissible banner, then removed). A short-lived cookie read and cleared by the
 * dashboard, so it works without JavaScript as well.
 */
import { createCookie } from '@remix-run/node'
import { getEnv } from '#app/lib/config/env.server.ts'

let cookie: ReturnType<typeof createCookie> | undefined
function welcomeCookie() {
  cookie ??= createCookie('kestrel_welcome', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: 600,
    secrets: getEnv().SESSION_SECRET.split(','),
  })
  return cookie
}

export function welcomeMessageFor(firstName: string) {
  return `Welcome to Kestrel, ${firstName}! Your account is ready. Start by creating your first survey project below.`
}

export async function setWelcomeCookie(message: string) {
  return welcomeCookie().serialize(message)
}

/** The message (if any) and the header that clears it. */
export async function takeWelcome(request: Request) {
  const message = await welcomeCookie().parse(request.headers.get('Cookie'))
  if (typeof message !== 'string' || !message) return { message: null, clear: null }
  return { message, clear: await welcomeCookie().serialize('', { maxAge: 0 }) }
}
