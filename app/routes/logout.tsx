import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { deleteSession, destroySessionCookie, readSessionToken } from '#app/domain/auth/session.server.ts'
import { CLEAR_SITE_DATA_ON_SIGN_OUT } from '#app/domain/offline/cache-rules.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'

/**
 * Logout deletes the session server-side and goes to /. The browser is told to drop this
 * site's storage too: the pilot's offline job pack, kept uploads and the service worker
 * must not outlive the session on a shared device.
 */
export async function action({ request }: ActionFunctionArgs) {
  await readFormBody(request)
  const token = await readSessionToken(request)
  if (token) deleteSession(token)
  return redirect('/', {
    headers: { 'Set-Cookie': await destroySessionCookie(), 'Clear-Site-Data': CLEAR_SITE_DATA_ON_SIGN_OUT },
  })
}

export async function loader() {
  return redirect('/')
}
