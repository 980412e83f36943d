/**
 * `/projects/$projectId/repeat` — the "Fly this again" button's action: the repeat is
 * quoted and the client lands on its checkout (the new quote, then the terms and PayFast).
 * A refusal goes back to the project's details with the reason in a toast. No JavaScript needed.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import { refusedOnDetails, toProjectDetails } from '#app/routes/_helpers/details-form-action.server.ts'

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  toProjectDetails(request, () => pageId(params.projectId))

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = pageId(params.projectId)
  await readFormBody(request)
  return refusedOnDetails(projectId, 'Could not fly this again', () => {
    const repeat = repeatProject(user.id, projectId)
    return redirectWithToast(`/checkout/${repeat.id}`, {
      title: 'New survey quoted',
      description: 'The same areas at today’s prices. Accept the terms and pay to book the flight.',
    })
  })
}
