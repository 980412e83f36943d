// POST /admin/projects/:projectId/processing — the dialog's Process photos, cancel and restart forms (no JavaScript needed).
import type { ActionFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { processingForm } from '#app/domain/processing/processing-forms.server.ts'
import { loadAdminProject } from '#app/domain/projects/admin-project-dialog.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project } = loadAdminProject(params.projectId)
  const formData = await readFormBody(request)
  return processingForm(admin.id, project.id, formData, `/admin/projects/${project.id}#pd-processing`)
}

export function loader({ params }: ActionFunctionArgs) {
  return new Response(null, { status: 303, headers: { Location: `/admin/projects/${params.projectId}` } })
}
