/**
 * What the project details' one-button forms ("Fly this again", "Repeat on a schedule") share:
 * a typed URL going back to the details, and a refusal shown there as a toast (another
 * client's project stays a 404).
 */
import { redirect } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

const detailsUrl = (projectId: number) => `/dashboard?tab=projects&view=${projectId}`

/** The forms' loader: nothing to show, a typed URL goes to the project's details. */
export async function toProjectDetails(request: Request, projectId: () => number) {
  await requireRole(request, 'client')
  return redirect(detailsUrl(projectId()))
}

/** Runs a details form; a refusal (a DomainError) goes back to the details under `refusedTitle`, a 404 stays a 404. */
export async function refusedOnDetails(
  projectId: number,
  refusedTitle: string,
  run: () => Response | Promise<Response>,
) {
  try {
    return await run()
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    return redirectWithToast(detailsUrl(projectId), {
      type: 'error',
      title: refusedTitle,
      description: error.message,
    })
  }
}
