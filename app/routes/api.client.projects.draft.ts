/** POST /api/client/projects/draft: the Create Project form as JSON → 201 with the draft. */
import { json } from '@remix-run/node'
import { DraftApiSchema } from '#app/domain/projects/project-schemas.ts'
import { createDraft, toClientProject } from '#app/domain/projects/projects.server.ts'
import { apiRoute } from '#app/lib/http/api-route.server.ts'

export const { action, loader } = apiRoute({
  roles: 'client',
  POST: async ({ user, body }) => {
    const input = await body(DraftApiSchema)
    return json(toClientProject(createDraft(user.id, input)), { status: 201 })
  },
})
