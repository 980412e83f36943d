/**
 * What the project details' one-button forms ("Fly this again", "Repeat on a schedule") share:
 * the project id from the URL (404 unless a positive integer), a typed URL going back to the
 * details, and a refusal shown there as a toast (another client's project stays a 404).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

function projectIdOf(params: { projectId?: string }) {
  const id = Number(params.projectId)
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  return id
}

const detailsUrl = (projectId: number) => `/dashboard?tab=projects&view=${projectId}`

/** The forms' loader: nothing to show, a typed URL goes to the project's details. */
export async function toProjectDetails({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'client')
  return redirect(detailsUrl(projectIdOf(params)))
}

/** A refused form goes back to the project's details with the reason; a 404 stays a 404. */
function refusedOnDetails(error: unknown, projectId: number, title: string) {
  if (!isDomainError(error)) throw error
  if (error.status === 404) throw new Response('Not Found', { status: 404 })
  return redirectWithToast(detailsUrl(projectId), { type: 'error', title, description: error.message })
}

/**
 * A details form's action: the signed-in client, the project id and the form body go to `run`;
 * a refusal (a DomainError) goes back to the details under `refusedTitle`.
 */
export function detailsFormAction(
  refusedTitle: string,
  run: (clientId: number, projectId: number, form: FormData) => Response | Promise<Response>,
) {
  return async ({ request, params }: ActionFunctionArgs) => {
    const user = await requireRole(request, 'client')
    const projectId = projectIdOf(params)
    const form = await readFormBody(request)
    try {
      return await run(user.id, projectId, form)
    } catch (error) {
      return refusedOnDetails(error, projectId, refusedTitle)
    }
  }
}
