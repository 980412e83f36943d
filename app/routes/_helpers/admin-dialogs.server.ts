/**
 * The server half of the admin console's dialog routes. A confirm dialog:
 * the tab's button links to the dialog, the dialog's `ConfirmDialog` posts to the route's own
 * action, and `confirmedAdminAction` makes the change and answers with a redirect and a toast.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { redirectWithToast, type ToastInput } from '#app/lib/http/toast.server.ts'
import type { User } from '#db/schema.ts'

/** The record a dialog URL names (its id read by `pageId`), or a 404 response with `notFound`. */
export function foundOr404<T>(record: T | null | undefined, notFound: string): T {
  if (!record) throw new Response(notFound, { status: 404 })
  return record
}

/** The loader of an admin dialog that needs nothing but the admin. */
export async function adminDialogLoader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({})
}

/**
 * Admins only; reads the (empty) form through `readFormBody` (same-origin check), runs the
 * change and redirects to `back` with the toast `done` returns. With `failed`, an error is
 * logged and answered with that error toast instead of an error page.
 */
export async function confirmedAdminAction<T>(
  request: Request,
  {
    back,
    run,
    done,
    failed,
  }: {
    back: string
    run: (admin: User) => T | Promise<T>
    done: (result: T) => ToastInput
    failed?: { log: string; toast: Omit<ToastInput, 'type'> }
  },
) {
  const admin = await requireRole(request, 'admin')
  await readFormBody(request)
  let result: T
  try {
    result = await run(admin)
  } catch (error) {
    if (!failed || error instanceof Response) throw error
    console.error(`[admin] ${failed.log}`, error)
    return redirectWithToast(back, { type: 'error', ...failed.toast })
  }
  return redirectWithToast(back, done(result))
}
