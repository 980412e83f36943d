/**
 * POST /api/client/create-project: the project fields and its flight
 * plan in one call (`createQuotedProject`: the draft and Generate Quote services of the
 * dashboard and the planner, in one transaction). 201 with the project (status `pending`, `quoteAmount`).
 */
import { json } from '@remix-run/node'
import { DraftApiSchema } from '#app/domain/projects/project-schemas.ts'
import { createQuotedProject, toClientProject } from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'
import { apiFail, zodFieldErrors } from '#app/lib/http/api.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  POST: async ({ user, body }) => {
    // The raw body too: the flight plan's fields are read by the quote service.
    const raw = await body()
    const draft = DraftApiSchema.safeParse(raw)
    if (!draft.success) {
      const fieldErrors = zodFieldErrors(draft.error)
      apiFail(400, Object.values(fieldErrors)[0]?.[0] ?? 'Invalid input', { fieldErrors })
    }
    return json(toClientProject(createQuotedProject(user.id, draft.data, raw)), { status: 201 })
  },
})
