// POST /admin/projects/:projectId/processing — the dialog's Process photos, cancel and restart forms (no JavaScript needed).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { idOrNull, pageId } from '#app/lib/http/page-errors.server.ts'
import { loadAdminProject } from '#app/routes/_helpers/admin-project-dialog.server.ts'
import { processingForm } from '#app/routes/_helpers/processing-forms.server.ts'

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project } = await loadAdminProject(pageId(params.projectId))
  const formData = await readFormBody(request)
  return processingForm(admin.id, project.id, formData, `/admin/projects/${project.id}#pd-processing`)
}

/** A GET here (a reload after posting) goes back to the dialog; an odd id to the list. */
export function loader({ params }: LoaderFunctionArgs) {
  const id = idOrNull(params.projectId)
  return redirect(id ? `/admin/projects/${id}` : '/admin?tab=projects')
}
