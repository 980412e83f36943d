/**
 * `/projects/$projectId/repeat` — the "Fly this again" button's action (ADR 266): the repeat is
 * quoted and the client lands on its checkout (the new quote, then the terms and PayFast).
 * A refusal goes back to the project's details with the reason in a toast. No JavaScript needed.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'

function projectIdOf(params: { projectId?: string }) {
  const id = Number(params.projectId)
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  return id
}

const detailsUrl = (projectId: number) => `/dashboard?tab=projects&view=${projectId}`

/** Nothing to show here: a typed URL goes to the project's details, where the button is. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'client')
  return redirect(detailsUrl(projectIdOf(params)))
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = projectIdOf(params)
  await readFormBody(request)
  try {
    const repeat = repeatProject(user.id, projectId)
    return redirectWithToast(`/checkout/${repeat.id}`, {
      title: 'New survey quoted',
      description: 'The same areas at today’s prices. Accept the terms and pay to book the flight.',
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    return redirectWithToast(detailsUrl(projectId), {
      type: 'error',
      title: 'Could not fly this again',
      description: error.message,
    })
  }
}
