import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { deleteSession, destroySessionCookie, readSessionToken } from '#app/domain/auth/session.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'

/** Logout deletes the session server-side and goes to /. */
export async function action({ request }: ActionFunctionArgs) {
  await readFormBody(request)
  const token = await readSessionToken(request)
  if (token) deleteSession(token)
  return redirect('/', { headers: { 'Set-Cookie': await destroySessionCookie() } })
}

export async function loader() {
  return redirect('/')
}
