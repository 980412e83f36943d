/**
 * `/projects/$projectId/schedule` — "Repeat on a schedule" on a project's details (ADR 283): the
 * project's site (made now, named after the project, when it was never repeated) gets the
 * schedule, and the client lands on the site page, where it can be renamed or cancelled.
 * A refusal goes back to the project's details with the reason in a toast. No JavaScript needed.
 */
import { parseWithZod } from '@conform-to/zod'
import { json } from '@remix-run/node'
import { detailsFormAction, toProjectDetails } from '#app/domain/projects/details-form-action.server.ts'
import { scheduleProjectRepeats } from '#app/domain/sites/repeat.server.ts'
import { ProjectScheduleFormSchema, SITE_MESSAGES } from '#app/domain/sites/site-schedule.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const loader = toProjectDetails

export const action = detailsFormAction('Could not set the schedule', (clientId, projectId, form) => {
  const submission = parseWithZod(form, { schema: ProjectScheduleFormSchema })
  if (submission.status !== 'success') return json({ error: SITE_MESSAGES.repeatInvalid }, { status: 400 })
  const siteId = scheduleProjectRepeats(clientId, projectId, submission.value.repeatEvery)
  return redirectWithToast(`/sites/${siteId}`, {
    type: 'success',
    title: SITE_MESSAGES.scheduled,
    description: 'Each survey is quoted before its date and e-mailed to you to pay. Rename the site here.',
  })
})
