/**
 * `/projects/$projectId/schedule` — "Repeat on a schedule" on a project's details (ADR 283): the
 * project's site (made now, named after the project, when it was never repeated) gets the
 * schedule, and the client lands on the site page, where it can be renamed or cancelled.
 * A refusal goes back to the project's details with the reason in a toast. No JavaScript needed.
 */
import { parseWithZod } from '@conform-to/zod'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { scheduleProjectRepeats } from '#app/domain/sites/repeat.server.ts'
import { ProjectScheduleFormSchema, SITE_MESSAGES } from '#app/domain/sites/site-schedule.ts'

function projectIdOf(params: { projectId?: string }) {
  const id = Number(params.projectId)
  if (!Number.isInteger(id) || id <= 0) throw new Response('Not Found', { status: 404 })
  return id
}

const detailsUrl = (projectId: number) => `/dashboard?tab=projects&view=${projectId}`

/** Nothing to show here: a typed URL goes to the project's details, where the control is. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'client')
  return redirect(detailsUrl(projectIdOf(params)))
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const projectId = projectIdOf(params)
  const submission = parseWithZod(await readFormBody(request), { schema: ProjectScheduleFormSchema })
  if (submission.status !== 'success') return json({ error: SITE_MESSAGES.repeatInvalid }, { status: 400 })
  try {
    const siteId = scheduleProjectRepeats(user.id, projectId, submission.value.repeatEvery)
    return redirectWithToast(`/sites/${siteId}`, {
      type: 'success',
      title: SITE_MESSAGES.scheduled,
      description: 'Each survey is quoted before its date and e-mailed to you to pay. Rename the site here.',
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw new Response('Not Found', { status: 404 })
    return redirectWithToast(detailsUrl(projectId), {
      type: 'error',
      title: 'Could not set the schedule',
      description: error.message,
    })
  }
}
