/**
 * Toasts that survive a redirect (a flash cookie), so messages show with JavaScript
 * off too. The root loader reads and clears it; the layout shows one at a time.
 */
import { createCookieSessionStorage, json, redirect } from '@remix-run/node'
import { getEnv } from '#app/lib/config/env.server.ts'
import { z } from 'zod'

const ToastSchema = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(['success', 'error', 'info']).default('success'),
})
export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>

const KEY = 'toast' as const
type ToastFlash = { [KEY]: Toast }
let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, ToastFlash>> | undefined
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, ToastFlash>({
    cookie: {
      name: 'kestrel_toast',
      sameSite: 'lax',
      path: '/',
      httpOnly: true,
      secrets: getEnv().SESSION_SECRET.split(','),
      secure: (getEnv().APP_URL ?? '').startsWith('https://'),
    },
  })
  return storage
}

export async function createToastHeaders(toast: ToastInput) {
  const session = await toastStorage().getSession()
  session.flash(KEY, ToastSchema.parse(toast))
  return new Headers({ 'Set-Cookie': await toastStorage().commitSession(session) })
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers)
  const toastHeaders = await createToastHeaders(toast)
  headers.append('Set-Cookie', toastHeaders.get('Set-Cookie')!)
  return redirect(url, { ...init, headers })
}

/** A refused form: `data` (its errors for the form) with `status` and an error toast (title 'Error' unless given). */
export async function jsonWithErrorToast<Data>(
  data: Data,
  status: number,
  toast: { title?: string; description?: string },
) {
  const headers = await createToastHeaders({
    type: 'error',
    title: toast.title ?? 'Error',
    description: toast.description,
  })
  return json(data, { status, headers })
}

export async function getToast(request: Request) {
  const session = await toastStorage().getSession(request.headers.get('Cookie'))
  const parsed = ToastSchema.safeParse(session.get(KEY))
  return {
    toast: parsed.success ? parsed.data : null,
    headers: parsed.success
      ? new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) })
      : null,
  }
}
