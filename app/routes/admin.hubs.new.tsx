import { type ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { HubForm } from '#app/components/dashboard/admin/hub-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { hubErrorMessage, HubSchema } from '#app/domain/admin/schemas.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { createHub } from '#app/domain/hubs/hubs.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { adminDialogLoader } from '#app/routes/_helpers/admin-dialogs.server.ts'
import { submitAdminForm } from '#app/routes/_helpers/admin-forms.server.ts'

const CLOSE = '/admin?tab=settings'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  return submitAdminForm(await readFormBody(request), {
    schema: HubSchema,
    failure: hubErrorMessage,
    failureTitle: 'Validation Error',
    closeTo: CLOSE,
    save: (value) => createHub(admin.id, value),
    done: (hub) => ({
      title: 'Hub Created',
      description: `${hub.name} is ${hub.isActive ? 'active' : 'inactive'}.`,
    }),
  })
}

export default function CreateHubDialog() {
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog
      title="Add Hub"
      description="A base from which pilots travel; quotes use the nearest active hub."
      closeTo={CLOSE}
    >
      <HubForm lastResult={actionData?.result} closeTo={CLOSE} submitLabel="Create Hub" />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
