// POST /admin/projects/:projectId/processing — the dialog's Process photos, cancel and restart forms (no JavaScript needed).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { loadAdminProject } from '#app/domain/admin/project-dialog.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { processingForm } from '#app/domain/processing/processing-forms.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { idOrNull } from '#app/lib/http/page-errors.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project } = loadAdminProject(params.projectId)
  const formData = await readFormBody(request)
  return processingForm(admin.id, project.id, formData, `/admin/projects/${project.id}#pd-processing`)
}

/** A GET here (a reload after posting) goes back to the dialog; an odd id to the list. */
export function loader({ params }: LoaderFunctionArgs) {
  const id = idOrNull(params.projectId)
  return redirect(id ? `/admin/projects/${id}` : '/admin?tab=projects')
}
