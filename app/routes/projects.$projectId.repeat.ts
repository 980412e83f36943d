/**
 * `/projects/$projectId/repeat` — the "Fly this again" button's action: the repeat is
 * quoted and the client lands on its checkout (the new quote, then the terms and PayFast).
 * A refusal goes back to the project's details with the reason in a toast. No JavaScript needed.
 */
import { detailsFormAction, toProjectDetails } from '#app/domain/projects/details-form-action.server.ts'
import { repeatProject } from '#app/domain/sites/repeat.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const loader = toProjectDetails

export const action = detailsFormAction('Could not fly this again', (clientId, projectId) => {
  const repeat = repeatProject(clientId, projectId)
  return redirectWithToast(`/checkout/${repeat.id}`, {
    title: 'New survey quoted',
    description: 'The same areas at today’s prices. Accept the terms and pay to book the flight.',
  })
})
