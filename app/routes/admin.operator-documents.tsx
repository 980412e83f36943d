/** `POST /admin/operator-documents` — the Compliance tab's add and remove forms. */
import { parseWithZod } from '@conform-to/zod'
import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import {
  createOperatorDocument,
  deleteOperatorDocument,
} from '#app/domain/operator/operator-documents.server.ts'
import { OperatorDocumentSchema } from '#app/domain/operator/schemas.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

const BACK = '/admin?tab=compliance'
/** The remove form's intent; the add form has none. */
const DeleteIntent = intentSchema('delete')

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const form = await readFormBody(request)
  if (readIntent(form, DeleteIntent)) {
    try {
      deleteOperatorDocument(admin.id, Number(form.get('id')))
    } catch (error) {
      if (!isDomainError(error)) throw error
      return redirectWithToast(BACK, { type: 'error', title: 'Not removed', description: error.message })
    }
    return redirectWithToast(BACK, { title: 'Document removed' })
  }
  const submission = parseWithZod(form, { schema: OperatorDocumentSchema })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {})[0]?.[0] ?? 'Check the document details'
    return redirectWithToast(BACK, { type: 'error', title: 'Document not added', description: first })
  }
  createOperatorDocument(admin.id, submission.value)
  return redirectWithToast(BACK, { title: 'Document added' })
}

export function loader() {
  return redirect(BACK)
}
