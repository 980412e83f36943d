// POST /admin/processing-nodes — the settings tab's node forms: add, edit, enable or disable, remove.
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { nodeForm } from '#app/routes/_helpers/processing-forms.server.ts'

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const formData = await readFormBody(request)
  return nodeForm(admin.id, formData, '/admin?tab=settings#processing-nodes')
}

export const loader = () => redirect('/admin?tab=settings')
