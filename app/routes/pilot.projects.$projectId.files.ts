/**
 * The pilot's file forms without JavaScript (action only): a multipart upload of flight
 * media to an assigned project, or `intent=delete-file` for one of their uploads. Both
 * redirect back to the job (`/dashboard?project=ID`) with the product's toast. With
 * JavaScript the upload widget uses tus instead.
 */
import { redirect } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { requireAssignedProject } from '#app/domain/pilot/pilot-projects.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { asPage, idOrNull, pageId } from '#app/lib/http/page-errors.server.ts'
import { resourceRoute } from '#app/lib/http/resource-route.server.ts'
import { handleFileIntent, handleUploadForm } from '#app/routes/_helpers/file-page-actions.server.ts'

const FileIntents = intentSchema('delete-file')

export const { loader, action } = resourceRoute({
  GET: ({ params }) => redirect(`/dashboard?project=${idOrNull(params.projectId) ?? ''}`),
  POST: async ({ request, params }) => {
    const pilot = await requireRole(request, 'pilot')
    const projectId = pageId(params.projectId)
    await asPage(() => requireAssignedProject(pilot.id, projectId))
    const back = `/dashboard?project=${projectId}`
    if (isMultipart(request)) return handleUploadForm(request, pilot, 'raw_image', back)
    const formData = await readFormBody(request)
    if (readIntent(formData, FileIntents) === 'delete-file')
      return handleFileIntent(request, pilot, formData, back)
    return redirect(back)
  },
})
